// crease-preview's page: the plain animation (left) beside the wrinkled one
// (right), as crease-preview streams them over /frames (layout in
// client/preview/preview_messages.h). window.crease exposes its counters for
// tests.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const MAGIC = 0x46505243;
const LABEL_COLOURS = {
  0: [0.75, 0.75, 0.75], 1: [0.25, 0.45, 1.0],  // unspecified, compress
  2: [0.75, 0.75, 0.75], 3: [1.0, 0.4, 0.3],    // rest, stretch
};
const state = window.crease = {
  framesReceived: 0, framesDrawn: 0, currentFrame: -1, error: '',
  labels: {}, wrinkles: 0,
  renders: 0,  // pictures drawn: a test waits for the next one
  // Turns both meshes about their own vertical axes (tests use it).
  turn: (degrees) => {
    for (const group of [meshes.left, meshes.right]) {
      group.rotation.y = degrees * Math.PI / 180;
    }
  },
};
// One pass of the animation, by frame of the pass (a session frame's index
// modulo the frames per pass): a later pass replaces what an earlier one
// brought, so scrubbing always spans the animation.
const frames = [];
let newest = -1;  // the slot the last frame filled
const arrivals = [];  // ms, for the stream's fps
let init = null, meshes = null, current = 0, playing = true;
let lastArrival = 0, lastDraw = performance.now(), playClock = 0;
const drawTimes = [];

const view = document.getElementById('view');
const hud = document.getElementById('hud');
const scrub = document.getElementById('scrub');
const playButton = document.getElementById('play');
const overlay = document.getElementById('overlay');
const showPaths = document.getElementById('paths');

const renderer = new THREE.WebGLRenderer({ antialias: true,
                                           preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio);
view.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x202428);
scene.add(new THREE.HemisphereLight(0xffffff, 0x404050, 1.2));
const sun = new THREE.DirectionalLight(0xffffff, 2.0);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(35, 1, 0.001, 1000);
const controls = new OrbitControls(camera, renderer.domElement);

function resize() {
  const w = view.clientWidth, h = view.clientHeight;
  renderer.setSize(w, h);
  camera.aspect = w / h;
  camera.updateProjectionMatrix();
}
window.addEventListener('resize', resize);
resize();

function parseFrame(buffer) {
  const u32 = new Uint32Array(buffer, 0, 8);
  if (u32[0] !== MAGIC) throw new Error('not a crease-preview frame');
  const latency = new Float32Array(buffer, 8, 1)[0];
  const [v, w, t, k, p] = u32.slice(3, 8);
  let at = 32;
  const take = (Type, n) => {
    const a = new Type(buffer, at, n);
    at += 4 * n;
    return a;
  };
  return {
    index: u32[1], latency, coarse: take(Float32Array, 3 * v),
    wrinkled: take(Float32Array, 3 * w), normals: take(Float32Array, 3 * w),
    labels: take(Float32Array, t), compression: take(Float32Array, t),
    counts: take(Uint32Array, k), points: take(Float32Array, 3 * p),
  };
}

// Smooth normals of the coarse mesh, written per corner: area-weighted sums
// over the vertices at one place (`weld`, so a triangle soup shades smooth).
function cornerNormals(positions, triangles, weld, out) {
  const n = new Float32Array(3 * weld.count);
  const a = new THREE.Vector3(), b = new THREE.Vector3(),
        c = new THREE.Vector3();
  for (let i = 0; i < triangles.length; i += 3) {
    const [i0, i1, i2] = [triangles[i], triangles[i + 1], triangles[i + 2]];
    a.fromArray(positions, 3 * i0);
    b.fromArray(positions, 3 * i1).sub(a);
    c.fromArray(positions, 3 * i2).sub(a);
    b.cross(c);
    for (const v of [i0, i1, i2]) {
      const w = weld.ids[v];
      n[3 * w] += b.x; n[3 * w + 1] += b.y; n[3 * w + 2] += b.z;
    }
  }
  for (let i = 0; i < triangles.length; ++i) {
    a.fromArray(n, 3 * weld.ids[triangles[i]]).normalize();
    a.toArray(out, 3 * i);
  }
}

// Vertices at exactly one place in the first frame share an id.
function weldOf(positions) {
  const ids = new Int32Array(positions.length / 3);
  const seen = new Map();
  for (let v = 0; v < ids.length; ++v) {
    const key = `${positions[3 * v]},${positions[3 * v + 1]},${positions[3 * v + 2]}`;
    if (!seen.has(key)) seen.set(key, seen.size);
    ids[v] = seen.get(key);
  }
  return { ids, count: seen.size };
}

function build(first) {
  const tri = init.coarse.triangles;
  const plain = new THREE.BufferGeometry();
  for (const name of ['position', 'normal', 'color']) {
    plain.setAttribute(name, new THREE.BufferAttribute(
        new Float32Array(3 * tri.length), 3));
  }
  const wrinkled = new THREE.BufferGeometry();
  wrinkled.setIndex(init.wrinkled.triangles);
  wrinkled.setAttribute('position', new THREE.BufferAttribute(
      new Float32Array(3 * init.wrinkled.vertices), 3));
  wrinkled.setAttribute('normal', new THREE.BufferAttribute(
      new Float32Array(3 * init.wrinkled.vertices), 3));
  const cloth = { color: 0xc8c8c8, roughness: 0.65, side: THREE.DoubleSide };
  const plainMesh = new THREE.Mesh(plain, new THREE.MeshStandardMaterial(
      { ...cloth, color: 0xffffff, vertexColors: true }));
  const wrinkledMesh = new THREE.Mesh(wrinkled,
                                      new THREE.MeshStandardMaterial(cloth));
  const paths = new THREE.LineSegments(new THREE.BufferGeometry(),
      new THREE.LineBasicMaterial({ color: 0xff3030, depthTest: false }));
  paths.renderOrder = 1;
  paths.frustumCulled = false;  // its geometry changes every frame
  // Side by side, a little apart, framed on the first frame.
  const box = new THREE.Box3().setFromArray(first.coarse);
  const size = box.getSize(new THREE.Vector3());
  const centre = box.getCenter(new THREE.Vector3());
  // Far enough apart that turning (about y) never makes them overlap.
  const shift = 0.6 * Math.max(Math.hypot(size.x, size.z), 0.5 * size.y);
  // Each mesh turns about its own vertical axis (window.crease.turn).
  const left = new THREE.Group(), right = new THREE.Group();
  left.position.set(-shift, 0, 0);
  right.position.set(shift, 0, 0);
  const leftInner = new THREE.Group(), rightInner = new THREE.Group();
  leftInner.position.set(-centre.x, -centre.y, -centre.z);
  rightInner.position.copy(leftInner.position);
  leftInner.add(plainMesh);
  rightInner.add(wrinkledMesh, paths);
  left.add(leftInner);
  right.add(rightInner);
  scene.add(left, right);
  const radius = Math.max(2 * shift + Math.hypot(size.x, size.z), size.y);
  camera.position.set(0, 0.1 * radius, 1.7 * radius);
  camera.near = radius / 100;
  camera.far = radius * 100;
  camera.updateProjectionMatrix();
  controls.target.set(0, 0, 0);
  controls.update();
  sun.position.set(radius, 2 * radius, 2 * radius);
  meshes = { plain, wrinkled, wrinkledMesh, paths, shift, left, right,
             weld: weldOf(first.coarse) };
}

function colourOf(frame, t, out) {
  if (overlay.value === 'labels') return LABEL_COLOURS[frame.labels[t]] || out;
  if (overlay.value === 'compression') {
    const c = Math.min(frame.compression[t] / 0.3, 1);
    return [0.8 + 0.2 * c, 0.8 - 0.35 * c, 0.8 - 0.7 * c];
  }
  return out;
}

function show(i) {
  const frame = frames[i];
  if (!frame || !meshes) return;
  const tri = init.coarse.triangles;
  const position = meshes.plain.attributes.position.array;
  for (let c = 0; c < tri.length; ++c) {
    position.set(frame.coarse.subarray(3 * tri[c], 3 * tri[c] + 3), 3 * c);
  }
  cornerNormals(frame.coarse, tri, meshes.weld,
                meshes.plain.attributes.normal.array);
  const colour = meshes.plain.attributes.color.array;
  const grey = [0.8, 0.8, 0.8];
  for (let t = 0; t < tri.length / 3; ++t) {
    const rgb = colourOf(frame, t, grey);
    for (let k = 0; k < 3; ++k) colour.set(rgb, 9 * t + 3 * k);
  }
  for (const name of ['position', 'normal', 'color']) {
    meshes.plain.attributes[name].needsUpdate = true;
  }
  meshes.plain.computeBoundingSphere();
  // A frame without a wrinkled mesh (a refused output) hides it.
  const whole = frame.wrinkled.length === meshes.wrinkled.attributes.position.array.length;
  meshes.wrinkledMesh.visible = whole;
  if (whole) {
    meshes.wrinkled.attributes.position.array.set(frame.wrinkled);
    meshes.wrinkled.attributes.normal.array.set(frame.normals);
  }
  meshes.wrinkled.attributes.position.needsUpdate = true;
  meshes.wrinkled.attributes.normal.needsUpdate = true;
  meshes.wrinkled.computeBoundingSphere();
  // Each path as segments between its points.
  const segments = [];
  let at = 0;
  for (const count of frame.counts) {
    for (let p = 0; p + 1 < count; ++p) {
      for (const q of [at + p, at + p + 1]) {
        segments.push(frame.points[3 * q], frame.points[3 * q + 1],
                      frame.points[3 * q + 2]);
      }
    }
    at += count;
  }
  meshes.paths.geometry.setAttribute('position',
      new THREE.Float32BufferAttribute(segments, 3));
  meshes.paths.visible = showPaths.checked;
  const counts = [0, 0, 0, 0];
  for (const label of frame.labels) ++counts[label];
  state.labels = { compress: counts[1], rest: counts[2], stretch: counts[3] };
  state.wrinkles = frame.counts.length;
  if (state.currentFrame !== i) ++state.framesDrawn;
  state.currentFrame = i;
  scrub.value = i;
}

// Each caption above the middle of its mesh (as framed on the first frame).
function placeCaptions() {
  for (const [id, x] of [['plain-caption', -meshes.shift],
                         ['wrinkled-caption', meshes.shift]]) {
    const p = new THREE.Vector3(x, 0, 0).project(camera);
    const caption = document.getElementById(id);
    caption.style.left =
        `${(0.5 + 0.5 * p.x) * view.clientWidth - caption.offsetWidth / 2}px`;
  }
}

function rate(times, now) {
  while (times.length && now - times[0] > 1000) times.shift();
  return times.length;
}

function tick(now) {
  requestAnimationFrame(tick);
  if (frames.length && playing) {
    playClock += (now - lastDraw) * init.fps / 1000;
    const steps = Math.floor(playClock);
    playClock -= steps;
    if (now - lastArrival > 1500) {
      current = (current + steps) % frames.length;  // the stream has ended
    } else {
      current = newest;  // live: the newest
    }
  }
  lastDraw = now;
  if (frames.length) {
    show(current);
    drawTimes.push(now);
  }
  controls.update();
  renderer.render(scene, camera);
  ++state.renders;
  if (meshes) placeCaptions();
  const f = frames[current];
  hud.textContent = f ? [
    `frame ${current} of ${frames.length}  (session frame ${f.index}, ` +
        `${state.framesReceived} received)`,
    `latency ${f.latency.toFixed(1)} ms`,
    `stream ${rate(arrivals, now)} fps, drawn ${rate(drawTimes, now)} fps`,
    `wrinkles ${f.counts.length}   server ${init.server_version}`,
  ].join('\n') : 'waiting for frames…';
}

playButton.onclick = () => {
  playing = !playing;
  playButton.textContent = playing ? 'Pause' : 'Play';
};
document.getElementById('turn').oninput = (event) => {
  if (meshes) state.turn(Number(event.target.value));
};
scrub.oninput = () => {
  playing = false;
  playButton.textContent = 'Play';
  current = Number(scrub.value);
};

const socket = new WebSocket(`ws://${location.host}/frames`);
socket.binaryType = 'arraybuffer';
socket.onmessage = (event) => {
  try {
    if (typeof event.data === 'string') {
      init = JSON.parse(event.data);
      return;
    }
    const frame = parseFrame(event.data);
    if (!meshes) build(frame);
    newest = frame.index % Math.max(init.frames, 1);
    frames[newest] = frame;
    ++state.framesReceived;
    lastArrival = performance.now();
    arrivals.push(lastArrival);
    scrub.max = frames.length - 1;
  } catch (e) {
    state.error = String(e);
    document.getElementById('status').textContent = state.error;
  }
};
socket.onclose = () => {
  document.getElementById('status').textContent = 'stream closed';
};
requestAnimationFrame(tick);
