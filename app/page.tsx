export default function Home() {
  return (
    <main>
      <h1>Vigil</h1>
      <p>Text moderation and a person memory bank.</p>
      <ul>
        <li>
          <a href="/openapi.json">OpenAPI document</a>
        </li>
        <li>
          <a href="/v1/health">Health</a> · <a href="/v1/models">Models</a>
        </li>
      </ul>
    </main>
  );
}
