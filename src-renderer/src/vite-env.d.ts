// Vite's `?url` imports resolve to the emitted asset's URL (pdf.js's worker).
declare module '*?url' {
  const url: string;
  export default url;
}
