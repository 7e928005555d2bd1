/*! advisor chat widget: embed with one tag, no build step, no external requests.
 *
 *   <script src="https://ADVISOR_HOST/widget.js"
 *     data-title="Training server advisor"   panel title
 *     data-lang="auto"                        auto | en | zh  (UI strings; answers follow the question)
 *     data-position="bottom-right"            bottom-right | bottom-left
 *     data-mode="launcher"                    launcher | inline (with data-target="#css-selector")
 *     data-greeting="Hi!"                     first message shown in an empty conversation
 *     data-endpoint="https://ADVISOR_HOST"    defaults to the origin this script was loaded from
 *     data-api-key="..."                      sent as X-API-Key when the service requires keys
 *     data-user-token="..."                   a signed user token (HS256 JWT) minted by the host page's server;
 *                                             sent as X-Advisor-User, so conversations belong to that user.
 *                                             Refresh it with AdvisorWidget.setUserToken(token) before it expires.
 *     data-theme="light"                      light | dark; colours: --advisor-accent, --advisor-accent-text,
 *                                             --advisor-bg, --advisor-text, --advisor-muted, --advisor-border
 *     data-accent="#2563eb"></script>         shorthand for --advisor-accent
 *
 * Everything renders inside an open Shadow DOM, so the host page's CSS cannot reach it.
 */
(function () {
  "use strict";

  var script = document.currentScript ||
    (function () {
      var all = document.querySelectorAll('script[src*="widget.js"]');
      return all[all.length - 1];
    })();
  if (!script) return;
  var ds = script.dataset || {};

  var STRINGS = {
    en: {
      open: "Open the training server advisor",
      close: "Close",
      newChat: "New conversation",
      placeholder: "Ask about GPUs, memory, training time…",
      input: "Your question",
      send: "Send",
      you: "You",
      assistant: "Advisor",
      greeting: "Hi! Ask me how to choose servers for training a large language model.",
      thinking: "Thinking…",
      calculating: "Calculating: ",
      sources: "Sources",
      calc: "Calculation",
      suggestions: "Suggested questions",
      helpful: "Helpful",
      notHelpful: "Not helpful",
      thanks: "Thanks for the feedback!",
      feedbackFailed: "Could not save your feedback. Please try again.",
      commentPrompt: "What was wrong or missing? (optional)",
      commentSend: "Send comment",
      commentThanks: "Thanks, your comment was sent.",
      errGeneric: "Sorry, something went wrong while answering. Please try again in a moment.",
      errNetwork: "Cannot reach the advisor. Check your connection and try again.",
      errAuth: "The advisor needs an access key that this page does not provide. Please contact the page owner.",
      errSession: "Your sign-in for the advisor has expired. Reload the page to continue.",
      errInput: "The advisor could not read that question. Please shorten or rephrase it.",
      errRate: "Too many questions at once. Please wait a minute and try again.",
      errBusy: "The advisor is starting up. Please try again in a few seconds.",
      errHistory: "The previous conversation could not be loaded; starting a new one.",
      errGone: "That conversation has expired. Please ask again to start a new one.",
    },
    zh: {
      open: "打开训练服务器选型顾问",
      close: "关闭",
      newChat: "新对话",
      placeholder: "问问GPU、显存、训练时间……",
      input: "你的问题",
      send: "发送",
      you: "你",
      assistant: "顾问",
      greeting: "你好！可以问我训练大模型该怎么选服务器。",
      thinking: "思考中……",
      calculating: "正在计算：",
      sources: "参考来源",
      calc: "计算",
      suggestions: "推荐问题",
      helpful: "有帮助",
      notHelpful: "没有帮助",
      thanks: "感谢你的反馈！",
      feedbackFailed: "反馈保存失败，请重试。",
      commentPrompt: "哪里不对或缺了什么？（可选）",
      commentSend: "发送意见",
      commentThanks: "谢谢，你的意见已发送。",
      errGeneric: "抱歉，回答时出了点问题，请稍后再试。",
      errNetwork: "无法连接到顾问服务，请检查网络后重试。",
      errAuth: "顾问服务需要访问密钥，但本页面没有提供。请联系页面管理员。",
      errSession: "顾问的登录状态已过期，请刷新页面后继续。",
      errInput: "顾问无法处理这个问题，请缩短或换个说法。",
      errRate: "提问太频繁了，请稍等一分钟再试。",
      errBusy: "顾问服务正在启动，请几秒钟后再试。",
      errHistory: "无法加载之前的对话，已开始新对话。",
      errGone: "之前的对话已过期，请重新提问开始新对话。",
    },
  };

  function pickLang(value) {
    var v = (value || "auto").toLowerCase();
    if (v === "auto") v = (navigator.language || "en").toLowerCase();
    return v.indexOf("zh") === 0 ? "zh" : "en";
  }

  var lang = pickLang(ds.lang);
  var T = STRINGS[lang];
  var endpoint = (ds.endpoint || new URL(script.src, location.href).origin).replace(/\/+$/, "");
  var apiKey = ds.apiKey || "";
  var userToken = ds.userToken || "";
  var mode = ds.mode === "inline" ? "inline" : "launcher";
  var position = ds.position === "bottom-left" ? "bottom-left" : "bottom-right";
  var title = ds.title || (lang === "zh" ? "训练服务器顾问" : "Training server advisor");
  var greeting = ds.greeting || T.greeting;
  // one remembered conversation per service and per signed-in user (a shared computer keeps them apart)
  function storageKeyFor(token) { return "advisor-widget:conversation:" + endpoint + (token ? ":" + tokenUser(token) : ""); }
  var storageKey = storageKeyFor(userToken);
  var THUMB = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M1 21h4V9H1v12zm22-11c0-1.1-.9-2-2-2h-6.31l.95-4.57.03-.32c0-.41-.17-.79-.44-1.06L14.17 1 7.59 7.59C7.22 7.95 7 8.45 7 9v10c0 1.1.9 2 2 2h9c.83 0 1.54-.5 1.84-1.22l3.02-7.05c.09-.23.14-.47.14-.73v-2z"/></svg>';
  // ---------- styles (px only: rem would follow the host page's root font size) ----------
  var CSS = [
    ":host{all:initial !important;display:block !important;}",
    ".root{--a:var(--advisor-accent,#2563eb);--at:var(--advisor-accent-text,#fff);--bg:var(--advisor-bg,#fff);",
    "--tx:var(--advisor-text,#1f2937);--mu:var(--advisor-muted,#6b7280);--bd:var(--advisor-border,#e5e7eb);",
    "--sf:var(--advisor-surface,#f3f4f6);",
    "font:14px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'PingFang SC','Microsoft YaHei','WenQuanYi Micro Hei',sans-serif;",
    "color:var(--tx);text-align:left;letter-spacing:normal;word-spacing:normal;text-transform:none;}",
    ".root.dark{--bg:var(--advisor-bg,#111827);--tx:var(--advisor-text,#f3f4f6);--mu:var(--advisor-muted,#9ca3af);",
    "--bd:var(--advisor-border,#374151);--sf:var(--advisor-surface,#1f2937);}",
    ".root *,.root *::before,.root *::after{box-sizing:border-box;font:inherit;color:inherit;}",
    "button{cursor:pointer;border:0;background:none;padding:0;margin:0;}",
    "button:focus-visible,textarea:focus-visible,a:focus-visible{outline:2px solid var(--a);outline-offset:2px;}",
    ".launcher{position:fixed;bottom:20px;z-index:2147483000;width:56px;height:56px;border-radius:50%;",
    "background:var(--a);color:var(--at);box-shadow:0 4px 14px rgba(0,0,0,.25);display:flex;align-items:center;justify-content:center;}",
    ".launcher svg{width:28px;height:28px;fill:currentColor;}",
    ".pos-bottom-right .launcher,.pos-bottom-right .panel{right:20px;}",
    ".pos-bottom-left .launcher,.pos-bottom-left .panel{left:20px;}",
    ".panel{position:fixed;bottom:88px;z-index:2147483001;width:380px;max-width:calc(100vw - 40px);height:600px;",
    "max-height:calc(100vh - 108px);background:var(--bg);border:1px solid var(--bd);border-radius:12px;",
    "box-shadow:0 10px 40px rgba(0,0,0,.22);display:flex;flex-direction:column;overflow:hidden;}",
    ".panel[hidden]{display:none;}",
    ".inline .panel{position:static;width:100%;max-width:none;height:560px;max-height:none;box-shadow:none;}",
    "header{display:flex;align-items:center;gap:8px;padding:10px 12px;background:var(--a);color:var(--at);}",
    "header h2{flex:1;margin:0;font-size:15px;font-weight:600;line-height:1.3;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;}",
    "header button{color:var(--at);font-size:13px;padding:4px 8px;border-radius:6px;}",
    "header button:hover{background:rgba(255,255,255,.18);}",
    "header .x{font-size:20px;line-height:1;}",
    ".log{flex:1;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:10px;background:var(--bg);}",
    ".msg{max-width:92%;padding:8px 11px;border-radius:10px;overflow-wrap:anywhere;}",
    ".msg.user{align-self:flex-end;background:var(--a);color:var(--at);white-space:pre-wrap;}",
    ".msg.bot{align-self:flex-start;background:var(--sf);}",
    ".msg.error{align-self:stretch;background:#fef2f2;color:#991b1b;border:1px solid #fecaca;}",
    ".streaming{white-space:pre-wrap;}",
    ".thinking{color:var(--mu);font-style:italic;}",
    ".content p{margin:0 0 8px;}.content p:last-child{margin-bottom:0;}",
    ".content ul,.content ol{margin:4px 0 8px;padding-left:20px;}",
    ".content h3,.content h4{margin:8px 0 4px;font-size:14px;font-weight:600;}",
    ".content code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;background:rgba(0,0,0,.06);padding:0 3px;border-radius:3px;}",
    ".content pre{overflow-x:auto;font-size:12px;}",
    ".content table,.card table{border-collapse:collapse;margin:6px 0;font-size:12px;display:block;overflow-x:auto;}",
    ".content th,.content td,.card th,.card td{border:1px solid var(--bd);padding:3px 6px;text-align:left;}",
    ".content a,.cites a{color:var(--a);text-decoration:underline;}",
    ".card{margin-top:8px;border:1px solid var(--bd);border-left:3px solid var(--a);border-radius:6px;background:var(--bg);padding:6px 8px;}",
    ".card h4{margin:0 0 2px;font-size:12px;font-weight:600;color:var(--mu);}",
    ".card table{display:table;width:100%;margin:2px 0 0;}",
    ".card td.v{font-weight:600;text-align:right;}",
    ".card tr.in th,.card tr.in td.v{font-weight:400;color:var(--mu);}",
    ".cites{margin-top:8px;font-size:12px;}",
    ".cites h4,.chips h4{margin:0 0 2px;font-size:12px;font-weight:600;color:var(--mu);}",
    ".cites ol{margin:0;padding-left:20px;}",
    ".chips{margin-top:8px;}",
    ".chips div{display:flex;flex-wrap:wrap;gap:6px;}",
    ".chip{border:1px solid var(--a);color:var(--a);border-radius:14px;padding:3px 10px;font-size:12px;text-align:left;background:var(--bg);}",
    ".chip:hover{background:var(--a);color:var(--at);}",
    ".fb{display:flex;align-items:center;gap:6px;margin-top:6px;font-size:12px;color:var(--mu);}",
    ".fb button{font-size:15px;padding:2px 6px;border-radius:6px;border:1px solid var(--bd);background:var(--bg);}",
    ".fb button{display:inline-flex;align-items:center;color:var(--mu);}",
    ".fb svg{width:16px;height:16px;fill:currentColor;}",
    ".fb .down svg{transform:rotate(180deg);}",
    ".fb button[aria-pressed=true]{background:var(--a);border-color:var(--a);color:var(--at);}",
    ".fb-comment{display:flex;gap:6px;margin-top:6px;align-items:flex-end;}",
    ".fb-comment textarea{flex:1;min-width:0;resize:vertical;font-size:12px;border:1px solid var(--bd);border-radius:6px;padding:4px 6px;background:var(--bg);}",
    ".fb-comment button{font-size:12px;padding:4px 8px;border-radius:6px;background:var(--a);color:var(--at);white-space:nowrap;}",
    "form{display:flex;gap:8px;padding:10px;border-top:1px solid var(--bd);background:var(--bg);margin:0;}",
    "textarea{flex:1;resize:none;height:40px;max-height:120px;padding:9px 10px;border:1px solid var(--bd);border-radius:8px;",
    "background:var(--bg);color:var(--tx);margin:0;}",
    ".send{background:var(--a);color:var(--at);border-radius:8px;padding:0 14px;font-weight:600;}",
    ".send:disabled{opacity:.5;cursor:default;}",
    ".sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;}",
    "@media (max-width:480px){",
    ".panel{left:0 !important;right:0 !important;bottom:0;width:100vw;max-width:100vw;height:100%;max-height:100%;border-radius:0;border:0;}",
    ".inline .panel{width:100%;height:560px;}}",
  ].join("");

  // ---------- DOM helpers (text goes in as text, never as HTML) ----------
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (!Object.prototype.hasOwnProperty.call(attrs, k) || attrs[k] == null) continue;
        if (k === "text") node.textContent = attrs[k];
        else if (k === "className") node.className = attrs[k];
        else node.setAttribute(k, attrs[k]);
      }
    }
    (children || []).forEach(function (c) {
      if (c) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  // answer_html is sanitized by the server; this second pass (inert <template>, allow-list) keeps
  // the widget safe even if an older or misconfigured server sends something unexpected.
  var ALLOWED = { P: 1, STRONG: 1, EM: 1, CODE: 1, PRE: 1, UL: 1, OL: 1, LI: 1, TABLE: 1, THEAD: 1, TBODY: 1,
    TR: 1, TH: 1, TD: 1, A: 1, BR: 1, H3: 1, H4: 1, BLOCKQUOTE: 1, SUP: 1, SPAN: 1, DIV: 1 };
  var ATTRS = { href: 1, title: 1, align: 1, "class": 1, "data-calculation": 1 };
  function safeFragment(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = String(html || "");
    (function clean(parent) {
      Array.prototype.slice.call(parent.childNodes).forEach(function (n) {
        if (n.nodeType === 3) return;
        if (n.nodeType !== 1 || !ALLOWED[n.tagName]) {
          if (n.nodeType === 1 && !/^(SCRIPT|STYLE|IFRAME|OBJECT|EMBED|TEMPLATE|SVG|MATH)$/i.test(n.tagName)) {
            parent.replaceChild(document.createTextNode(n.textContent || ""), n);
          } else {
            parent.removeChild(n);
          }
          return;
        }
        Array.prototype.slice.call(n.attributes).forEach(function (a) {
          if (!ATTRS[a.name] || (a.name === "href" && !/^https?:\/\//i.test(a.value))) n.removeAttribute(a.name);
        });
        if (n.tagName === "A") {
          n.setAttribute("target", "_blank");
          n.setAttribute("rel", "noopener noreferrer nofollow");
        }
        clean(n);
      });
    })(tpl.content);
    return tpl.content;
  }

  // one calculation as a card: its title and labelled rows, in the answer's language, as the server wrote them
  function renderCard(calc, L) {
    var tbody = el("tbody");
    (calc.rows || []).forEach(function (r) {
      tbody.appendChild(el("tr", { className: r.kind === "input" ? "in" : "out" }, [
        el("th", { scope: "row", text: r.label }), el("td", { className: "v", text: r.value })]));
    });
    return el("section", { className: "card", "data-tool": calc.tool, "aria-label": L.calc + ": " + calc.title }, [
      el("h4", { text: calc.title }),
      el("table", null, [tbody]),
    ]);
  }

  // each calculation's card where the answer shows its table (the server marks the place), the rest after it
  function placeCards(content, calcs, L) {
    var placed = {};
    Array.prototype.slice.call(content.querySelectorAll("div[data-calculation]")).forEach(function (slot) {
      var i = Number(slot.getAttribute("data-calculation"));
      if (calcs[i] && !placed[i]) {
        slot.parentNode.replaceChild(renderCard(calcs[i], L), slot);
        placed[i] = true;
      }
    });
    return calcs.filter(function (c, i) { return !placed[i]; }).map(function (c) { return renderCard(c, L); });
  }

  // every citation opens this service's source page, which shows the passage, its date and the original links
  // the token's user id, read (not verified: the server does that) to keep each user's history apart
  function tokenUser(token) {
    try {
      var part = token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      var bytes = atob(part + "===".slice((part.length + 3) % 4));
      var utf8 = new Uint8Array(bytes.length);
      for (var i = 0; i < bytes.length; i++) utf8[i] = bytes.charCodeAt(i);
      var sub = JSON.parse(new TextDecoder("utf-8").decode(utf8)).sub;
      return typeof sub === "string" && sub ? sub : "?";
    } catch (e) { return "?"; }
  }

  function citationHref(c) {
    var id = String(c.doc_id || c.source || "");
    return endpoint + "/v1/sources/" + id.split("/").map(encodeURIComponent).join("/");
  }

  // ---------- the widget ----------
  var host = document.createElement("div");
  host.id = "advisor-widget";
  host.setAttribute("data-advisor-widget", "");
  var shadow = host.attachShadow({ mode: "open" });
  var root = el("div", { className: "root pos-" + position + (mode === "inline" ? " inline" : "") +
    (ds.theme === "dark" ? " dark" : ""), lang: lang === "zh" ? "zh-CN" : "en" });
  if (ds.accent) root.style.setProperty("--advisor-accent", ds.accent);
  shadow.appendChild(el("style", { text: CSS }));
  shadow.appendChild(root);

  var titleId = "advisor-title";
  var log = el("div", { className: "log", role: "log", "aria-live": "polite", "aria-relevant": "additions" });
  var input = el("textarea", { rows: "1", placeholder: T.placeholder, "aria-label": T.input, maxlength: "4000" });
  var sendBtn = el("button", { type: "submit", className: "send", "aria-label": T.send, text: T.send });
  var form = el("form", null, [input, sendBtn]);
  var newBtn = el("button", { type: "button", className: "new", "aria-label": T.newChat, title: T.newChat, text: "＋" });
  var closeBtn = el("button", { type: "button", className: "x", "aria-label": T.close, title: T.close, text: "×" });
  var panel = el("div", { className: "panel", role: "dialog", "aria-labelledby": titleId, "aria-modal": "false" }, [
    el("header", null, [el("h2", { id: titleId, text: title }), newBtn, mode === "launcher" ? closeBtn : null]),
    log,
    form,
  ]);
  var launcher = null;
  if (mode === "launcher") {
    panel.hidden = true;
    launcher = el("button", { type: "button", className: "launcher", "aria-label": T.open, title: T.open,
      "aria-expanded": "false", "aria-haspopup": "dialog" });
    // a speech bubble, drawn inline (no external requests)
    launcher.innerHTML = '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"/></svg>';
    root.appendChild(launcher);
  }
  root.appendChild(panel);

  var state = { conversationId: null, busy: false, greeted: false };
  try { state.conversationId = localStorage.getItem(storageKey); } catch (e) { /* storage blocked */ }

  function saveConversation(id) {
    state.conversationId = id;
    try {
      if (id) localStorage.setItem(storageKey, id);
      else localStorage.removeItem(storageKey);
    } catch (e) { /* storage blocked */ }
  }

  function scrollDown() { log.scrollTop = log.scrollHeight; }

  function headers(json) {
    var h = { Accept: json ? "application/json" : "text/event-stream" };
    h["Content-Type"] = "application/json";
    if (apiKey) h["X-API-Key"] = apiKey;
    if (userToken) h["X-Advisor-User"] = userToken;
    return h;
  }

  function greet() {
    if (state.greeted || log.querySelector(".msg")) return;
    state.greeted = true;
    log.appendChild(el("div", { className: "msg bot greeting" }, [el("div", { className: "content", text: greeting })]));
  }

  function addUser(text) {
    var m = el("div", { className: "msg user", text: text });
    log.appendChild(m);
    scrollDown();
    return m;
  }

  function addError(text) {
    var m = el("div", { className: "msg error", role: "alert", text: text });
    log.appendChild(m);
    scrollDown();
  }

  function errorForStatus(status) {
    if (status === 401 && userToken) return T.errSession;
    if (status === 401 || status === 403) return T.errAuth;
    if (status === 400 || status === 413 || status === 422) return T.errInput;
    if (status === 429) return T.errRate;
    if (status === 503) return T.errBusy;
    return T.errGeneric;
  }

  function errorForCode(code) {
    if (code === "unauthorized" || code === "forbidden") return T.errAuth;
    if (code === "invalid_input" || code === "invalid_request" || code === "bad_request" || code === "payload_too_large") return T.errInput;
    if (code === "not_found") return T.errGone;
    if (code === "rate_limited") return T.errRate;
    if (code === "not_ready" || code === "unavailable") return T.errBusy;
    return T.errGeneric;
  }

  function renderFeedback(bubble, answer, rated) {
    var L = STRINGS[answer.language === "zh" ? "zh" : "en"];
    var status = el("span", { className: "fb-status", role: "status" });
    var up = el("button", { type: "button", className: "up", "aria-label": L.helpful, title: L.helpful, "aria-pressed": "false" });
    var down = el("button", { type: "button", className: "down", "aria-label": L.notHelpful, title: L.notHelpful, "aria-pressed": "false" });
    // drawn inline: emoji fonts are not everywhere, and the widget makes no outside requests
    up.innerHTML = THUMB;
    down.innerHTML = THUMB;
    var box = null;
    function mark(rating) {
      up.setAttribute("aria-pressed", String(rating === "up"));
      down.setAttribute("aria-pressed", String(rating === "down"));
    }
    if (rated) { mark(rated); status.textContent = L.thanks; bubble.setAttribute("data-rated", rated); }
    function post(rating, comment) {
      return fetch(endpoint + "/v1/feedback", {
        method: "POST",
        headers: headers(true),
        body: JSON.stringify({ conversation_id: answer.conversation_id, message_id: answer.message_id, rating: rating, comment: comment }),
      }).then(function (r) { if (!r.ok) throw new Error(String(r.status)); });
    }
    function closeBox() { if (box && box.parentNode) box.parentNode.removeChild(box); box = null; }
    // after a thumbs-down: an optional comment, sent as the same vote with its text
    function openBox() {
      if (box) return;
      var text = el("textarea", { className: "fb-text", rows: "2", maxlength: "2000", "aria-label": L.commentPrompt, placeholder: L.commentPrompt });
      var sendComment = el("button", { type: "submit", className: "fb-send", text: L.commentSend });
      box = el("form", { className: "fb-comment" }, [text, sendComment]);
      box.addEventListener("submit", function (e) {
        e.preventDefault();
        var comment = text.value.trim();
        if (!comment) { text.focus(); return; }
        sendComment.disabled = true;
        post("down", comment).then(function () {
          closeBox();
          status.textContent = L.commentThanks;
          bubble.setAttribute("data-commented", "");
        }).catch(function () {
          status.textContent = L.feedbackFailed;
          sendComment.disabled = false;
        });
      });
      text.addEventListener("keydown", function (e) {
        if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) { e.preventDefault(); box.requestSubmit(); }
        if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); closeBox(); down.focus(); }
      });
      bubble.appendChild(box);
      text.focus();
    }
    function vote(rating) {
      up.disabled = down.disabled = true;
      post(rating, "").then(function () {
        mark(rating);
        status.textContent = L.thanks;
        bubble.setAttribute("data-rated", rating);
        if (rating === "down") openBox(); else closeBox();
      }).catch(function () {
        status.textContent = L.feedbackFailed;
      }).then(function () { up.disabled = down.disabled = false; });
    }
    up.addEventListener("click", function () { vote("up"); });
    down.addEventListener("click", function () { vote("down"); });
    return el("div", { className: "fb" }, [up, down, status]);
  }

  // The final rendering of one Answer into its bubble (used after streaming and for history).
  function renderAnswer(bubble, answer, rated) {
    var L = STRINGS[answer.language === "zh" ? "zh" : "en"];
    bubble.textContent = "";
    bubble.className = "msg bot answer";
    bubble.setAttribute("lang", answer.language === "zh" ? "zh-CN" : "en");
    bubble.setAttribute("data-message-id", answer.message_id || "");
    var content = el("div", { className: "content" });
    // only the server-sanitized answer_html becomes markup; the Markdown `answer` is only ever text
    if (answer.answer_html) content.appendChild(safeFragment(answer.answer_html));
    else content.textContent = answer.answer || "";
    var rest = placeCards(content, answer.calculations || [], L);
    bubble.appendChild(content);
    rest.forEach(function (card) { bubble.appendChild(card); });
    var cites = answer.citations || [];
    if (cites.length) {
      var ol = el("ol");
      cites.forEach(function (c) {
        ol.appendChild(el("li", { value: String(c.id) }, [el("a", {
          href: citationHref(c), target: "_blank", rel: "noopener noreferrer",
          "data-citation": String(c.id), title: c.section || c.title, text: c.title + (c.as_of ? " (" + c.as_of + ")" : ""),
        })]));
      });
      bubble.appendChild(el("div", { className: "cites" }, [el("h4", { text: L.sources }), ol]));
    }
    var follow = answer.follow_ups || [];
    if (follow.length) {
      var chips = el("div");
      follow.forEach(function (q) {
        var chip = el("button", { type: "button", className: "chip", text: q });
        chip.addEventListener("click", function () { send(q); });
        chips.appendChild(chip);
      });
      bubble.appendChild(el("div", { className: "chips", role: "group", "aria-label": L.suggestions }, [el("h4", { text: L.suggestions }), chips]));
    }
    if (answer.message_id && answer.conversation_id) bubble.appendChild(renderFeedback(bubble, answer, rated));
  }

  function parseEvent(block) {
    var event = "message";
    var data = [];
    block.split(/\r?\n/).forEach(function (line) {
      if (line.indexOf("event:") === 0) event = line.slice(6).trim();
      else if (line.indexOf("data:") === 0) data.push(line.slice(5).replace(/^ /, ""));
    });
    if (!data.length) return null;
    try { return { event: event, data: JSON.parse(data.join("\n")) }; } catch (e) { return null; }
  }

  function setBusy(busy) {
    state.busy = busy;
    sendBtn.disabled = busy;
    log.setAttribute("aria-busy", String(busy));
  }

  function send(text) {
    text = String(text || "").trim();
    if (!text || state.busy) return;
    addUser(text);
    input.value = "";
    setBusy(true);
    var bubble = el("div", { className: "msg bot pending", "data-tokens": "0" });
    var stream = el("div", { className: "streaming thinking", text: T.thinking });
    bubble.appendChild(stream);
    log.appendChild(bubble);
    scrollDown();
    var tokens = 0;
    var finished = false;

    function fail(message) {
      finished = true;
      if (bubble.parentNode) bubble.parentNode.removeChild(bubble);
      addError(message);
    }

    function handle(ev) {
      if (finished) return;
      if (ev.event === "token") {
        if (tokens === 0) { stream.textContent = ""; stream.className = "streaming"; }
        tokens += 1;
        stream.appendChild(document.createTextNode(String(ev.data.text || "")));
        bubble.setAttribute("data-tokens", String(tokens));
        scrollDown();
      } else if (ev.event === "tool_call" && tokens === 0) {
        // a chat model calling the calculators before it writes: say which, instead of only "thinking"
        stream.textContent = T.calculating + String((ev.data && ev.data.name) || "").replace(/_/g, " ") + "…";
      } else if (ev.event === "meta") {
        if (ev.data.conversation_id) saveConversation(ev.data.conversation_id);
      } else if (ev.event === "done") {
        finished = true;
        if (ev.data.conversation_id) saveConversation(ev.data.conversation_id);
        renderAnswer(bubble, ev.data);
        bubble.setAttribute("data-tokens", String(tokens));
        bubble.setAttribute("data-done", "");
        scrollDown();
      } else if (ev.event === "error") {
        var code = ev.data && ev.data.code;
        if (code === "not_found") saveConversation(null);
        fail(errorForCode(code));
      }
    }

    fetch(endpoint + "/v1/chat", {
      method: "POST",
      headers: headers(false),
      body: JSON.stringify({ message: text, conversation_id: state.conversationId, stream: true }),
    }).then(function (res) {
      if (!res.ok) {
        if (res.status === 404 && state.conversationId) saveConversation(null);
        fail(errorForStatus(res.status));
        return;
      }
      if (!res.body || !res.body.getReader) {
        // very old browsers: read it all at once
        return res.text().then(function (all) { all.split(/\r?\n\r?\n/).map(parseEvent).forEach(function (e) { if (e) handle(e); }); });
      }
      var reader = res.body.getReader();
      var decoder = new TextDecoder("utf-8");
      var buffer = "";
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) {
            buffer += decoder.decode();
          } else {
            buffer += decoder.decode(chunk.value, { stream: true });
          }
          var parts = buffer.split(/\r?\n\r?\n/);
          buffer = parts.pop() || "";
          parts.forEach(function (p) { var e = parseEvent(p); if (e) handle(e); });
          if (chunk.done) {
            if (buffer.trim()) { var e = parseEvent(buffer); if (e) handle(e); }
            return;
          }
          return pump();
        });
      }
      return pump();
    }).catch(function () {
      if (!finished) fail(T.errNetwork);
    }).then(function () {
      if (!finished) fail(T.errGeneric);
      setBusy(false);
      if (!panel.hidden) input.focus();
    });
  }

  function loadHistory() {
    if (!state.conversationId) return;
    fetch(endpoint + "/v1/conversations/" + encodeURIComponent(state.conversationId), { headers: headers(true) })
      .then(function (r) {
        if (r.status === 404) { saveConversation(null); return null; }
        // an expired sign-in: say so, and keep the conversation for after the reload
        if (r.status === 401 || r.status === 403) { addError(errorForStatus(r.status)); return null; }
        if (!r.ok) throw new Error(String(r.status));
        return r.json();
      })
      .then(function (conv) {
        if (!conv || !conv.turns) return;
        var frag = document.createDocumentFragment();
        conv.turns.forEach(function (turn) {
          frag.appendChild(el("div", { className: "msg user history", text: turn.message }));
          var bubble = el("div", { className: "msg bot" });
          renderAnswer(bubble, turn.answer, turn.feedback ? turn.feedback.rating : null);
          bubble.classList.add("history");
          bubble.setAttribute("data-done", "");
          frag.appendChild(bubble);
        });
        log.insertBefore(frag, log.querySelector(".msg:not(.greeting)"));
        root.setAttribute("data-history", String(conv.turns.length));
        scrollDown();
      })
      .catch(function () { addError(T.errHistory); saveConversation(null); });
  }

  function open() {
    panel.hidden = false;
    if (launcher) launcher.setAttribute("aria-expanded", "true");
    greet();
    scrollDown();
    input.focus();
  }

  function close() {
    if (mode !== "launcher") return;
    panel.hidden = true;
    launcher.setAttribute("aria-expanded", "false");
    launcher.focus();
  }

  if (launcher) {
    launcher.addEventListener("click", function () { if (panel.hidden) open(); else close(); });
    closeBtn.addEventListener("click", close);
  }
  newBtn.addEventListener("click", function () {
    saveConversation(null);
    log.textContent = "";
    state.greeted = false;
    greet();
    input.focus();
  });
  panel.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { e.preventDefault(); close(); }
  });
  input.addEventListener("keydown", function (e) {
    // Enter sends, Shift+Enter adds a line; never while an IME (pinyin) is composing
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      send(input.value);
    }
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); send(input.value); });

  function mount() {
    var target = mode === "inline" && ds.target ? document.querySelector(ds.target) : null;
    if (target) target.appendChild(host);
    else if (mode === "inline" && script.parentNode) script.parentNode.insertBefore(host, script.nextSibling);
    else document.body.appendChild(host);
    if (mode === "inline") greet();
    loadHistory();
  }
  if (document.body) mount();
  else document.addEventListener("DOMContentLoaded", mount);

  // a portal refreshes the signed user token before it expires; a different user starts from their own history
  function setUserToken(token) {
    var before = storageKey;
    userToken = String(token || "");
    storageKey = storageKeyFor(userToken);
    if (storageKey === before) return;
    log.textContent = "";
    state.greeted = false;
    state.conversationId = null;
    try { state.conversationId = localStorage.getItem(storageKey); } catch (e) { /* storage blocked */ }
    if (mode === "inline" || !panel.hidden) greet();
    loadHistory();
  }

  window.AdvisorWidget = { open: open, close: close, send: send, setUserToken: setUserToken, element: host };
})();
