// <form data-confirm="Question?">: asks before submitting (no inline handlers: the Content-Security-Policy forbids them).
document.addEventListener("submit", function (event) {
  "use strict";
  var form = event.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) event.preventDefault();
});
