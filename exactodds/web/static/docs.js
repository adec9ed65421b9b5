// The API page: lists every route of /openapi.json, with its example body.
"use strict";
// The start-up token (only when serve printed one): from ?token= or the tracker page's tab.
const params = new URLSearchParams(location.search);
if (params.get("token")) sessionStorage.setItem("exactodds.token", params.get("token"));
const token = sessionStorage.getItem("exactodds.token");
fetch("/openapi.json", token ? { headers: { "X-Exactodds-Token": token } } : {})
  .then((response) => response.json()).then((schema) => {
  const container = document.getElementById("paths");
  for (const [path, operations] of Object.entries(schema.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const section = document.createElement("section");
      const title = document.createElement("h2");
      title.innerHTML = `<span class="method"></span> <span class="path"></span>`;
      title.children[0].textContent = method;
      title.children[1].textContent = path;
      const summary = document.createElement("p");
      summary.textContent = operation.summary;
      section.append(title, summary);
      const body = operation.requestBody && operation.requestBody.content["application/json"];
      if (body) {
        const pre = document.createElement("pre");
        const lines = [];
        if (body.example !== undefined) lines.push("Example body: " + JSON.stringify(body.example));
        if (body.schema.properties) lines.push("Fields: " + Object.keys(body.schema.properties).join(", "));
        pre.textContent = lines.join("\n") || "Body: an export, as GET /api/shoes/{shoe_id}/export gives it.";
        section.appendChild(pre);
      }
      const statuses = document.createElement("p");
      statuses.textContent = "Answers: " + Object.entries(operation.responses)
        .map(([status, response]) => `${status} ${response.description}`).join(" · ");
      section.appendChild(statuses);
      container.appendChild(section);
    }
  }
});
