// Jobs (docs/console.md): not built yet; see docs/console.md, "What is left".
export default function Jobs() {
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">Jobs</h1>
      <p className="muted">This page is coming: see docs/console.md, “What is left”.</p>
    </section>
  );
}
