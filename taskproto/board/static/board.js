// taskproto board: live updates from /events, the user's actions through /api.
// No HTML is built from strings here: fresh sections come rendered (and escaped) by the server.
"use strict";

const page = document.body.dataset.page;
const taskName = document.body.dataset.task;
const lastHtml = {}; // section id -> the server's HTML last adopted
let inflight = false;
let dirty = false;

function partialUrl() {
  return page === "task" ? `/partial/tasks/${encodeURIComponent(taskName)}` : "/partial/board";
}

function remember(root) {
  root.querySelectorAll("[data-live]").forEach((s) => { lastHtml[s.id] = s.outerHTML; });
}

function busy(section) {
  // A comment or a message being written: never swap it away under the user's hands.
  return [...section.querySelectorAll("textarea")].some((t) => t.value.trim() !== "")
    || section.querySelector("tr.comment-form") !== null;
}

async function refresh() {
  if (inflight) { dirty = true; return; }
  inflight = true;
  try {
    do {
      dirty = false;
      const r = await fetch(partialUrl(), { credentials: "same-origin", cache: "no-store" });
      if (r.status === 404 && page === "task") { toast(`task ${taskName} is gone`, true); return; }
      if (!r.ok) { toast(`refresh failed: ${(await r.text()).trim()}`, true); return; }
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      doc.querySelectorAll("[data-live]").forEach((fresh) => {
        const old = document.getElementById(fresh.id);
        if (!old || lastHtml[fresh.id] === fresh.outerHTML) return;
        if (busy(old)) { old.classList.add("outdated"); return; }
        old.replaceWith(document.importNode(fresh, true));
        lastHtml[fresh.id] = fresh.outerHTML;
      });
      tick();
    } while (dirty);
  } catch (e) {
    toast(`refresh failed: ${e}`, true);
  } finally {
    inflight = false;
  }
}

function setLive(state, text) {
  const el = document.getElementById("live");
  el.dataset.state = state;
  el.textContent = text;
}

function connect() {
  const es = new EventSource("/events");
  es.addEventListener("hello", () => { setLive("live", "live"); refresh(); });
  es.addEventListener("change", (e) => {
    const change = JSON.parse(e.data);
    document.body.dataset.version = change.version;
    if (page !== "task" || change.all || change.activity || change.tasks.includes(taskName)) {
      refresh();
    }
  });
  es.onerror = () => setLive("down", "reconnecting…");
}

// --- relative times -------------------------------------------------------------
function ago(iso) {
  const s = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}

function tick() {
  document.querySelectorAll("time[data-since]").forEach((t) => {
    t.textContent = ago(t.dataset.since);
    t.title = t.dataset.since;
  });
}

// --- actions --------------------------------------------------------------------
let toastTimer = null;
function toast(text, bad) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.className = bad ? "show bad" : "show";
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ""; }, bad ? 8000 : 3000);
}

async function call(method, path, body) {
  const r = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(data.error || `${r.status}`);
  return data;
}

function api(suffix) {
  return `/api/tasks/${encodeURIComponent(taskName)}${suffix}`;
}

function openCommentForm(button) {
  const row = button.closest("tr");
  const file = button.closest(".file");
  if (row.nextElementSibling && row.nextElementSibling.classList.contains("comment-form")) {
    row.nextElementSibling.querySelector("textarea").focus();
    return;
  }
  const form = document.createElement("tr");
  form.className = "comment-form";
  const cell = document.createElement("td");
  cell.colSpan = row.children.length;
  const area = document.createElement("textarea");
  area.rows = 3;
  area.placeholder = `Comment on ${file.dataset.file}:${row.dataset.line}`;
  const save = document.createElement("button");
  save.type = "button";
  save.textContent = "Add comment";
  save.className = "primary";
  save.dataset.act = "save-comment";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.textContent = "Cancel";
  cancel.dataset.act = "cancel-comment";
  cell.append(area, save, cancel);
  form.append(cell);
  row.after(form);
  area.focus();
}

function closeForm(form) {
  const section = form.closest("[data-live]");
  form.remove();
  if (section && section.classList.contains("outdated")) refresh();
}

const actions = {
  async approve(b) {
    const body = { kind: b.dataset.kind };
    if (b.dataset.sha) body.sha = b.dataset.sha;
    await call("POST", api("/approve"), body);
    toast(b.dataset.kind === "plan" ? "plan approved" : `commit ${b.dataset.sha.slice(0, 12)} approved`);
  },
  async resume() {
    await call("POST", api("/resume"), {});
    toast("resumption recorded");
  },
  async revise() {
    const message = document.getElementById("revise-message");
    const trigger = document.getElementById("revise-trigger");
    await call("POST", api("/revise"), { message: message.value, trigger: trigger ? trigger.value : null });
    message.value = "";
    toast("revision requested");
  },
  async comment(b) { openCommentForm(b); },
  async "save-comment"(b) {
    const form = b.closest("tr.comment-form");
    const row = form.previousElementSibling;
    const file = b.closest(".file");
    const area = form.querySelector("textarea");
    const head = document.getElementById("diff");
    await call("POST", api("/comments"), {
      target: file.dataset.target,
      file: file.dataset.file,
      line: Number(row.dataset.line),
      text: area.value,
      head: head ? head.dataset.head || null : null,
    });
    closeForm(form);
    toast("comment saved as a draft");
  },
  async "cancel-comment"(b) { closeForm(b.closest("tr.comment-form")); },
  async "delete-comment"(b) {
    await call("DELETE", api(`/comments/${b.dataset.id}`));
    toast("comment deleted");
  },
  async doctor() {
    await call("POST", "/api/doctor", {});
    toast("doctor is checking");
  },
};

document.addEventListener("click", async (e) => {
  const b = e.target.closest("[data-act]");
  if (!b || !(b.dataset.act in actions)) return;
  e.preventDefault();
  b.disabled = true;
  try {
    await actions[b.dataset.act](b);
  } catch (err) {
    toast(err.message, true);
  } finally {
    b.disabled = false;
  }
});

remember(document);
tick();
setInterval(tick, 5000);
connect();
