// @ts-check
/**
 * electron-builder configuration (found automatically as `electron-builder.cjs`).
 *
 * Installers: Linux AppImage + deb, Windows NSIS, macOS dmg. Build each on its own OS: the native
 * modules (LanceDB, node-llama-cpp, onnxruntime, sharp) are prebuilt per platform and npm installs
 * only the host's. See docs/installers.md.
 *
 * What goes in: `out/**` (the electron-vite bundles), package.json and production node_modules.
 * Native modules are unpacked from app.asar (a .node file or a shared library cannot be loaded
 * from inside an archive). `models/` ships as extra resources (`resources/models`), where the app
 * looks for bundled models.
 *
 * llama.cpp prebuilt binaries: only the target's CPU build (plus Metal on Apple silicon, which is
 * that platform's default build). CUDA and Vulkan builds are hundreds of MB; set
 * MANUALMATE_GPU_BACKENDS=1 to ship the target's GPU builds too.
 */

const gpuBackends = process.env.MANUALMATE_GPU_BACKENDS === '1';

/** `@node-llama-cpp/*` folders kept for a target, `${arch}` expanded by electron-builder. */
function llamaBuilds(os) {
  const cpu = os === 'mac' ? [`mac-\${arch}`, `mac-\${arch}-metal`] : [`${os}-\${arch}`];
  const gpu = os === 'mac' ? [] : [`${os}-\${arch}-cuda`, `${os}-\${arch}-cuda-ext`, `${os}-\${arch}-vulkan`];
  return gpuBackends ? [...cpu, ...gpu] : cpu;
}

/**
 * The app's files for one target OS. Set per platform only (never also at the top level): a
 * platform `files` list holding only exclusions would make electron-builder add a catch-all and pack
 * the whole repository. Only `!` patterns reach node_modules, so each "keep only X" there is
 * written as "exclude everything but X" with an extglob.
 */
function platformFiles(os) {
  const onnxOs = { linux: 'linux', win: 'win32', mac: 'darwin' }[os];
  const lanceDb = { linux: 'linux-${arch}-gnu', win: 'win32-${arch}-msvc', mac: 'darwin-${arch}' }[os];
  return [
    'out/**',
    'package.json',
    '!out/**/*.map',
    // The command line's own bundle (bin/manualmate.mjs); the app runs out/main.
    '!out/cli{,/**}',
    '!**/node_modules/**/*.map',
    // transformers.js bundles its own copy of the web runtime; in Node it uses onnxruntime-node.
    '!**/node_modules/onnxruntime-web{,/**}',
    // The TypeScript runner of the CLI (bin/); the app runs the built bundles.
    '!**/node_modules/{tsx,esbuild,@esbuild}{,/**}',
    // llama.cpp's source, only used to build it from source (the app uses prebuilt binaries).
    '!**/node_modules/node-llama-cpp/llama/gitRelease.bundle',
    `!**/node_modules/@node-llama-cpp/!(${llamaBuilds(os).join('|')}){,/**}`,
    `!**/node_modules/onnxruntime-node/bin/napi-v*/!(${onnxOs}){,/**}`,
    `!**/node_modules/onnxruntime-node/bin/napi-v*/${onnxOs}/!(\${arch}){,/**}`,
    `!**/node_modules/@lancedb/lancedb-!(${lanceDb}){,/**}`,
  ];
}

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'app.manualmate.desktop',
  productName: 'ManualMate',
  copyright: 'Copyright © ManualMate contributors',
  directories: { output: 'dist', buildResources: 'build' },
  artifactName: '${productName}-${version}-${arch}.${ext}',
  // Electron takes its Linux app_id / WM_CLASS from desktopName, so running windows match the
  // installed .desktop entry (written into the packaged package.json, not the repository's).
  extraMetadata: { desktopName: 'manualmate.desktop' },
  // Every native dependency ships N-API prebuilt binaries: nothing to rebuild against Electron's
  // headers (which would need a network and a compiler).
  npmRebuild: false,
  asarUnpack: [
    '**/node_modules/@lancedb/**',
    '**/node_modules/node-llama-cpp/**',
    '**/node_modules/@node-llama-cpp/**',
    '**/node_modules/onnxruntime-node/**',
    // sharp (loaded by transformers.js) links libvips through a relative rpath: both must be on disk.
    '**/node_modules/sharp/**',
    '**/node_modules/@img/**',
    '**/*.node',
  ],
  extraResources: [{ from: 'models', to: 'models', filter: ['**/*', '!**/.gitkeep'] }],
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
  },
  publish: null,
  linux: {
    target: ['AppImage', 'deb'],
    executableName: 'manualmate',
    syncDesktopName: true,
    icon: 'build/icons',
    category: 'Office',
    synopsis: 'Search and chat with product manuals, offline',
    // "Open with ManualMate" for manuals, without registering (and restyling) system MIME types.
    mimeTypes: ['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'text/markdown'],
    files: platformFiles('linux'),
  },
  deb: {
    // The deb's maintainer and homepage come from package.json `author` (with email) and `homepage`.
    priority: 'optional',
  },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icon.ico',
    files: platformFiles('win'),
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    // Libraries and models in the data folder belong to the user: never delete them on uninstall.
    deleteAppDataOnUninstall: false,
  },
  mac: {
    // LanceDB 0.31 ships macOS binaries for Apple silicon only.
    target: [{ target: 'dmg', arch: ['arm64'] }],
    icon: 'build/icon.icns',
    category: 'public.app-category.productivity',
    // Listed in Finder's "Open With" menu, never as the default app for these types.
    fileAssociations: [
      { ext: 'pdf', name: 'PDF manual', role: 'Viewer', rank: 'Alternate' },
      { ext: 'docx', name: 'Word manual', role: 'Viewer', rank: 'Alternate' },
      { ext: ['md', 'markdown'], name: 'Markdown manual', role: 'Viewer', rank: 'Alternate' },
    ],
    files: platformFiles('mac'),
  },
  dmg: { title: '${productName} ${version}' },
};

module.exports = config;
