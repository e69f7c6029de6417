// Style sheets are imported as text (`with { type: "text" }`) to be embedded in the binary.
declare module "*.css" {
  const text: string;
  export default text;
}
