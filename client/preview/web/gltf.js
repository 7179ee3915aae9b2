// A stock three.js view of a .glb that crease-client --export wrote: one
// frame, drawn by GLTFLoader's own MeshStandardMaterial with the file's
// normal map and tangents, lit as Crease's renderer lights (a key and a fill
// light fixed in the camera's frame, shaders/cloth_lighting.glsl), so a
// browser's picture can be held to Crease's (tests/client/gltf_viewer_test.py).
//
// Query: glb=URL, frame=K (default 0), camera=URL of a JSON {eye, target, up,
// vertical_fov_degrees} (default: framed on the frame's bounds), map=0 to
// drop the normal maps, flip_green=1 to read them green-down (a deliberate
// mistake, for the test's control). Sets window.gltfView = {ready, error,
// frames} when drawn.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';

const query = new URLSearchParams(location.search);
const view = window.gltfView = { ready: false, error: '', frames: 0 };
const renderer = new THREE.WebGLRenderer({ antialias: true, alpha: true,
                                           preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setSize(window.innerWidth, window.innerHeight);
renderer.setClearColor(0x000000, 0);
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();

// Crease's lights (renderer/gl/scene_lighting.cc): towards the key and fill
// lights and the sky, in the camera's frame; three.js's punctual lights give
// irradiance = intensity, its Lambert albedo / pi: hence the factors of pi.
function light(camera) {
  const back = camera.position.clone().sub(camera.userData.target).normalize();
  const right = camera.up.clone().cross(back).normalize();
  const up = back.clone().cross(right);
  const towards = (r, u, b) => right.clone().multiplyScalar(r)
      .add(up.clone().multiplyScalar(u)).add(back.clone().multiplyScalar(b))
      .normalize();
  for (const [direction, intensity] of [[towards(-0.4, 0.55, 0.75), 0.75],
                                        [towards(0.75, 0.05, 0.65), 0.25]]) {
    const lamp = new THREE.DirectionalLight(0xffffff, intensity * Math.PI);
    lamp.position.copy(camera.userData.target).add(direction);
    lamp.target.position.copy(camera.userData.target);
    scene.add(lamp, lamp.target);
  }
  const sky = new THREE.HemisphereLight(0xffffff, 0x000000, 0.3 * Math.PI);
  sky.position.copy(camera.up);
  scene.add(sky);
}

async function main() {
  const gltf = await new GLTFLoader().loadAsync(query.get('glb'));
  const root = gltf.scene.children[0];
  const frame = Number(query.get('frame') || 0);
  view.frames = root.children.length;
  if (!(frame >= 0 && frame < root.children.length)) {
    throw new Error(`no frame ${frame} of ${root.children.length}`);
  }
  // Without playback only node 0 shows (the others are scaled to 0).
  root.children.forEach((node, i) => node.scale.setScalar(i === frame ? 1 : 0));
  const shown = root.children[frame];
  shown.traverse((object) => {
    if (!object.isMesh) return;
    const material = object.material;
    if (query.get('map') === '0') material.normalMap = null;
    if (query.get('flip_green') === '1') material.normalScale.y *= -1;
    material.needsUpdate = true;
  });
  scene.add(gltf.scene);
  scene.updateMatrixWorld(true);
  const aspect = window.innerWidth / window.innerHeight;
  let spec;
  if (query.get('camera')) {
    spec = await (await fetch(query.get('camera'))).json();
  } else {
    const sphere = new THREE.Box3().setFromObject(shown)
        .getBoundingSphere(new THREE.Sphere());
    spec = { target: sphere.center.toArray(), up: [0, 1, 0],
             eye: sphere.center.clone().add(
                 new THREE.Vector3(0, 0, 3 * sphere.radius)).toArray(),
             vertical_fov_degrees: 35 };
  }
  const camera = new THREE.PerspectiveCamera(spec.vertical_fov_degrees, aspect);
  camera.position.fromArray(spec.eye);
  camera.up.fromArray(spec.up);
  camera.userData.target = new THREE.Vector3().fromArray(spec.target);
  camera.lookAt(camera.userData.target);
  const distance = camera.position.distanceTo(camera.userData.target);
  camera.near = distance / 100;
  camera.far = distance * 100;
  camera.updateProjectionMatrix();
  light(camera);
  renderer.render(scene, camera);
  view.ready = true;
}

main().catch((e) => { view.error = String(e); });
