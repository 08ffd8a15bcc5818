// The certificate's "Print or save as PDF" button: shown only when scripts run (CSP: no inline).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
