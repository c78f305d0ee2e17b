// Workflows (docs/console.md): being built in this session; replaced by the page itself.
export default function Workflows() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Workflows</h1>
    </section>
  );
}
