// Assistant (docs/console.md): being built in this session; replaced by the page itself.
export default function Assistant() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Assistant</h1>
    </section>
  );
}
