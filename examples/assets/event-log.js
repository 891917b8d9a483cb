// Records every widget event from before the widget runs, and draws them as a list, newest first.
// Load it before widgets.js. Used by events.html; any page may include it to see what happens.
(function () {
  var NAMES = ['Service.ready', 'Service.member.info', 'Service.member.logout', 'Service.member.registration', 'Service.conversion'];
  var seen = [];
  var draw = function () {};
  NAMES.forEach(function (name) {
    document.addEventListener(name, function (event) {
      seen.push({ type: name, at: new Date(), detail: event.detail });
      draw();
    });
  });
  window.SvcEventLog = {
    events: seen,
    clear: function () { seen.length = 0; draw(); },
    /** Draws into `list` (a <ul>) now and on every event; `after` runs after each drawing. */
    render: function (list, after) {
      draw = function () {
        list.replaceChildren.apply(list, seen.slice().reverse().map(function (entry) {
          var item = document.createElement('li');
          var head = document.createElement('strong');
          head.textContent = entry.type;
          var time = document.createElement('span');
          time.className = 'tag';
          time.textContent = entry.at.toLocaleTimeString();
          var body = document.createElement('pre');
          body.textContent = JSON.stringify(entry.detail, null, 2);
          item.append(head, ' ', time, body);
          return item;
        }));
        if (after) after();
      };
      draw();
    },
  };
})();
