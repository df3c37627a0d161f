// `npm run models:tiny`: writes the tiny test models into tests/.models/ (tests also do it on demand).
import { ensureTinyGguf } from './tiny-gguf';
import { ensureTinyOnnx } from './tiny-onnx';

const gguf = await ensureTinyGguf();
const onnx = await ensureTinyOnnx();
console.log(`tiny GGUF: ${gguf}\ntiny ONNX embedder: ${onnx}`);
