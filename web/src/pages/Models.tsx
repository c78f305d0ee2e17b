// Models (docs/console.md): being built in this session; replaced by the page itself.
export default function Models() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Models</h1>
    </section>
  );
}
