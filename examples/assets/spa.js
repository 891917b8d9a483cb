// The single-page app of spa.html: three views, History API navigation, no framework.
// Member data only ever goes into the page as text (textContent), never as markup.
(function () {
  'use strict';

  var VIEWS = {
    home: { title: 'Home', draw: drawHome },
    members: { title: 'Members only', draw: drawMembers },
    profile: { title: 'Profile', draw: drawProfile },
  };
  var viewEl = document.getElementById('view');
  var state = {
    view: 'home',
    // Whether the widget is ready, and the member it knows (a MemberInfo, or null).
    ready: false,
    member: null,
    drawn: 0,
  };

  // ---- Who is logged in: the ready-flag pattern (spec 4.1) ------------------------------------

  function whenReady(start) {
    if (window.Service && window.Service.ready === true) {
      // Ready already: the ready event has gone and will not come again. Read the state now.
      start('flag');
      return;
    }
    // Not ready yet: listen for the ready event once, and remove the listener afterwards.
    function onReady() {
      document.removeEventListener('Service.ready', onReady);
      start('event');
    }
    document.addEventListener('Service.ready', onReady);
  }

  function startApp(path) {
    var info = window.Service.getMemberInfo();
    state.ready = true;
    state.member = info.isLoggedIn ? info.memberInfo : null;
    var said = document.getElementById('start-path');
    said.setAttribute('data-path', path);
    said.textContent =
      path === 'flag'
        ? 'Service.ready was already true when the app started, so it read Service.getMemberInfo() at once.'
        : 'The app started before the widget was ready, so it waited for the Service.ready event (once, then removed the listener) and read Service.getMemberInfo() then.';
    draw();
  }

  // After that, the member events keep the app up to date. They are only sent once the widget is
  // ready, so listening from the start is safe.
  document.addEventListener('Service.member.info', function (event) {
    state.member = event.detail.memberInfo;
    if (state.view === 'profile') draw();
  });
  document.addEventListener('Service.member.logout', function () {
    state.member = null;
    if (state.view === 'profile') draw();
  });

  // ---- Navigation: pushState on the app's links, popstate on Back and Forward ------------------

  function viewFromAddress() {
    var name = new URLSearchParams(window.location.search).get('view');
    return name === null ? 'home' : name;
  }

  function addressOf(view) {
    // The page is served at …/examples/spa.html: stay on it and change only the query.
    return view === 'home' ? window.location.pathname : '?view=' + encodeURIComponent(view);
  }

  document.addEventListener('click', function (event) {
    var link = event.target.closest && event.target.closest('a[data-view]');
    // A click with a modifier key (new tab, new window) is left to the browser: the new page starts on that view.
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    var view = link.getAttribute('data-view');
    if (view === state.view) return;
    window.history.pushState({ view: view }, '', addressOf(view));
    show(view, true);
  });

  window.addEventListener('popstate', function () {
    show(viewFromAddress(), true);
  });

  function show(view, moveFocus) {
    state.view = view;
    draw();
    if (moveFocus) {
      var heading = viewEl.querySelector('h2');
      if (heading) heading.focus();
    }
  }

  // ---- Drawing ---------------------------------------------------------------------------------

  function draw() {
    var view = VIEWS[state.view];
    viewEl.replaceChildren();
    var heading = el('h2', { tabindex: '-1' }, view ? view.title : 'No such view');
    viewEl.appendChild(heading);
    if (view) view.draw(viewEl);
    else drawUnknown(viewEl, state.view);
    document.title = heading.textContent + ' · A single-page app · svc examples';
    Array.prototype.forEach.call(document.querySelectorAll('.spa-nav a[data-view]'), function (link) {
      if (link.getAttribute('data-view') === state.view) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    });
    state.drawn += 1;
    document.getElementById('views-drawn').textContent = String(state.drawn);
    document.getElementById('address').textContent = window.location.pathname + window.location.search;
  }

  function drawHome(into) {
    // The widget fills data-svc-member-info in markup added later too; "visitor" comes back at logout.
    into.appendChild(el('p', {}, 'Hello ', el('strong', { 'data-svc-member-info': 'firstName' }, 'visitor'), '!'));
    into.appendChild(
      el('p', {}, 'This app has three views. Moving between them changes the address, not the page: nothing is downloaded again, and the widget keeps running.'),
    );
    into.appendChild(
      el('p', { 'data-svc-hide': 'auth', class: 'spa-muted' }, 'You are not logged in: the Members only view shows a placeholder.'),
    );
    into.appendChild(
      el('p', { 'data-svc-show': 'auth', class: 'spa-muted', style: 'display:none' }, 'You are logged in: the Members only view is open to you.'),
    );
  }

  function drawMembers(into) {
    // The widget shows one of these two and hides the other, for as long as they are in the page.
    into.appendChild(
      el(
        'div',
        { 'data-svc-show': 'auth', class: 'spa-members', id: 'members-content', style: 'display:none' },
        el('p', {}, 'Welcome in, ', el('strong', { 'data-svc-member-info': 'name' }), '.'),
        el('p', {}, 'Members-only tip of the month: everything in this box came with the page; the widget showed it the moment you logged in, with no reload.'),
      ),
    );
    into.appendChild(
      el(
        'div',
        { 'data-svc-hide': 'auth', class: 'spa-placeholder', id: 'members-placeholder' },
        el('p', {}, 'This view is for members. Log in and it fills in right here.'),
        loginButton(),
      ),
    );
  }

  function drawProfile(into) {
    // Drawn by the app itself from what the widget told it, and drawn again on every member event.
    if (!state.ready) {
      into.appendChild(el('p', { class: 'spa-muted' }, 'Checking who is logged in…'));
      return;
    }
    var member = state.member;
    if (!member) {
      into.appendChild(el('p', { id: 'profile-empty' }, 'Nobody is logged in, so there is no profile to show.'));
      into.appendChild(loginButton());
      return;
    }
    var list = el('dl', { class: 'spa-profile', id: 'profile' });
    list.appendChild(el('dt', {}, 'Name'));
    list.appendChild(el('dd', { id: 'profile-name' }, member.name));
    list.appendChild(el('dt', {}, 'E-mail'));
    list.appendChild(el('dd', { id: 'profile-email' }, member.email));
    list.appendChild(el('dt', {}, 'Plans'));
    var plans = el('dd', {});
    var ul = el('ul', { id: 'profile-plans' });
    (member.memberships || []).forEach(function (membership) {
      ul.appendChild(el('li', {}, membership.name + ' ', el('span', { class: 'tag' }, membership.status)));
    });
    if (!ul.firstChild) ul.appendChild(el('li', {}, 'none yet'));
    plans.appendChild(ul);
    list.appendChild(plans);
    into.appendChild(list);
    var account = el('button', { type: 'button', class: 'secondary' }, 'Account');
    account.addEventListener('click', function () {
      open('/member/account');
    });
    var logout = el('button', { type: 'button', id: 'logout' }, 'Log out');
    logout.addEventListener('click', function () {
      window.Service.logout().catch(report);
    });
    into.appendChild(el('p', { class: 'spa-actions' }, account, ' ', logout));
  }

  function drawUnknown(into, name) {
    into.appendChild(el('p', {}, 'This app has no view called “' + name + '”. ', el('a', { href: 'spa.html', 'data-view': 'home' }, 'Go home'), '.'));
  }

  function loginButton() {
    var button = el('button', { type: 'button', 'data-action': 'login' }, 'Log in');
    // Service.open exists once the widget is ready; until then the button waits.
    if (!state.ready) button.disabled = true;
    button.addEventListener('click', function () {
      open('/member/sign_in');
    });
    return button;
  }

  function open(path) {
    // Opens the screen from code, like a ?svcopen= link but with no address to change.
    window.Service.open(path).catch(report);
  }

  function report(error) {
    window.alert((error && error.code ? error.code + ': ' : '') + (error && error.message ? error.message : String(error)));
  }

  /** An element with attributes and children (strings become text, never markup). */
  function el(tag, attributes) {
    var node = document.createElement(tag);
    Object.keys(attributes).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  // ---- Start: the view comes from the address, so a reload (or a shared link) lands on it -------
  state.view = viewFromAddress();
  whenReady(startApp);
  // Not ready yet: draw the view now (the widget shows and hides its parts already), and again once ready.
  if (!state.ready) draw();
})();
