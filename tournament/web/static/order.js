// A partita's games are played in the order they are ticked: each form keeps that order in
// its hidden "order" field (without the script the form's own order is used).
(function () {
  "use strict";
  document.querySelectorAll('input[name="order"]').forEach(function (order) {
    var form = order.form, ticked = [];
    form.querySelectorAll('input[name="games"]').forEach(function (box) {
      if (box.checked) ticked.push(box.value);
      box.addEventListener("change", function () {
        ticked = ticked.filter(function (g) { return g !== box.value; });
        if (box.checked) ticked.push(box.value);
        order.value = ticked.join(",");
      });
    });
    order.value = ticked.join(",");
  });
})();
