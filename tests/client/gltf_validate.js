// node gltf_validate.js FILE.glb, NODE_PATH holding gltf-validator: prints the
// Khronos validator's counts and every message; exits 1 on errors or warnings.
const fs = require('fs');
const validator = require("gltf-validator");
const path = process.argv[2];
const data = new Uint8Array(fs.readFileSync(path));
validator.validateBytes(data, {maxIssues: 100}).then((report) => {
  const i = report.issues;
  console.log(`${path}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos, ${i.numHints} hints`);
  for (const m of i.messages) console.log(`  ${m.severity} ${m.code} ${m.pointer || ''}: ${m.message}`);
  process.exit(i.numErrors + i.numWarnings > 0 ? 1 : 0);
}, (error) => { console.error(error); process.exit(2); });
