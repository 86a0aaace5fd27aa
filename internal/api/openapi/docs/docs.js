// Drover's set-up of Swagger UI: render this server's /openapi.json, and
// let "Authorize" run the authorization-code flow with PKCE against this
// server's own issuer. Everything is loaded from this origin: the online
// validator badge is switched off so the document is never sent elsewhere.
window.addEventListener("DOMContentLoaded", function () {
  var ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    validatorUrl: null,
    oauth2RedirectUrl: window.location.origin + "/docs/oauth2-redirect.html",
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
  ui.initOAuth({
    clientId: "drover-docs",
    appName: "Drover API documentation",
    usePkceWithAuthorizationCodeGrant: true,
  });
  window.ui = ui;
});
