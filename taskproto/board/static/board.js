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
  // A comment, a message or a form being filled in, or a step waiting for the user's confirmation:
  // never swap it away under the user's hands.
  if (section.querySelector("tr.comment-form, .confirm") !== null) return true;
  return [...section.querySelectorAll("textarea, input[type=text]")].some((t) => t.value.trim() !== "")
    || [...section.querySelectorAll("select")].some(changedChoice)
    || [...section.querySelectorAll("input[type=checkbox]")].some((c) => c.checked !== c.defaultChecked);
}

function changedChoice(select) {
  // A single choice shows its first option when none is marked selected: that is no change.
  const options = [...select.options];
  if (select.multiple) return options.some((o) => o.selected !== o.defaultSelected);
  return options.length > 0 && select.selectedIndex !== Math.max(0, options.findIndex((o) => o.defaultSelected));
}

function adopt(old, fresh) {
  const node = document.importNode(fresh, true);
  old.querySelectorAll("details[id]").forEach((d) => { // keep what the user opened or closed
    const same = node.querySelector(`details#${CSS.escape(d.id)}`);
    if (same) same.open = d.open;
  });
  old.replaceWith(node);
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
        adopt(old, fresh);
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

// --- browser notifications: each new item of the inbox, once (docs/notifications.md) -----------
const notified = new Set(); // the items' keys seen by this page
let inboxRead = false; // what waits when the page opens is on the page: not notified

async function checkInbox() {
  if (!("Notification" in window)) return;
  try {
    const r = await fetch("/api/inbox", { credentials: "same-origin", cache: "no-store" });
    if (!r.ok) return;
    for (const item of (await r.json()).items) {
      if (notified.has(item.key)) continue;
      notified.add(item.key);
      if (inboxRead && Notification.permission === "granted") {
        new Notification(`taskproto: ${item.task} needs you (${item.reason})`, {
          body: `${item.text}\n${item.command}`,
          tag: item.key,
        });
      }
    }
    inboxRead = true;
  } catch (e) {
    // the board itself shows what waits
  }
}

function offerNotifications() {
  const button = document.getElementById("notify-me");
  if (!button || !("Notification" in window) || Notification.permission !== "default") return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.hidden = true;
  });
}

function connect() {
  const es = new EventSource("/events");
  es.addEventListener("hello", () => { setLive("live", "live"); refresh(); checkInbox(); });
  es.addEventListener("change", (e) => {
    checkInbox();
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
  if (!r.ok) {
    const err = new Error(data.error || `${r.status}`);
    err.forcible = data.forcible === true; // a refusal --force overrides: the user may confirm it
    throw err;
  }
  return data;
}

function taskOf(b) {
  const holder = b ? b.closest("[data-task]") : null;
  return holder ? holder.dataset.task : taskName;
}

function api(suffix, b) {
  return `/api/tasks/${encodeURIComponent(taskOf(b))}${suffix}`;
}

// A step the user confirms before it is taken: a removal, or forcing what was refused.
function confirmStep(b, text, yes, force) {
  const holder = b.closest(".controls, .actions") || b.parentElement;
  holder.querySelectorAll(".confirm").forEach((el) => el.remove());
  const box = document.createElement("div");
  box.className = "confirm";
  box.setAttribute("role", "alertdialog");
  const says = document.createElement("p");
  says.textContent = text;
  const ok = document.createElement("button");
  ok.type = "button";
  ok.className = "small danger";
  ok.textContent = yes;
  Object.assign(ok.dataset, b.dataset, { confirmed: "1" });
  if (force) ok.dataset.force = "1";
  const no = document.createElement("button");
  no.type = "button";
  no.className = "small";
  no.textContent = "Cancel";
  no.dataset.act = "cancel-confirm";
  box.append(says, ok, no);
  holder.append(box);
  ok.focus();
}

async function control(b, suffix, body) {
  return call("POST", api(suffix, b), { ...(body || {}), force: b.dataset.force === "1" });
}

const CARRIED = "taskproto-toast"; // what a control said, shown again on the page it led to

function leave(b) { // the task is gone: back to the board, saying there what was said here
  if (page !== "task" || taskOf(b) !== taskName) return;
  const el = document.getElementById("toast");
  sessionStorage.setItem(CARRIED, JSON.stringify([el.textContent, el.classList.contains("bad")]));
  location.assign("/");
}

function resetForm(form) {
  form.querySelectorAll("input[type=text], textarea").forEach((t) => { t.value = ""; });
  form.querySelectorAll("select option").forEach((o) => { o.selected = o.defaultSelected; });
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
    await call("POST", api("/approve", b), body);
    toast(b.dataset.kind === "plan" ? "plan approved" : `commit ${b.dataset.sha.slice(0, 12)} approved`);
  },
  async resume(b) {
    await call("POST", api("/resume", b), {});
    toast("resumption recorded");
  },
  async revise(b) {
    const message = document.getElementById("revise-message");
    const trigger = document.getElementById("revise-trigger");
    await call("POST", api("/revise", b), { message: message.value, trigger: trigger ? trigger.value : null });
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
  // --- the task controls (board/controls.py) ---
  async create(b) {
    const form = b.closest(".form");
    const value = (id) => document.getElementById(id).value;
    const after = [...document.getElementById("new-after").selectedOptions].map((o) => o.value);
    const r = await call("POST", "/api/tasks", {
      name: value("new-name").trim(),
      description: value("new-description"),
      workflow: value("new-workflow"),
      agents: value("new-agents"),
      after,
      priority: Number(value("new-priority")),
    });
    resetForm(form);
    toast(`created task ${r.task.name} (${r.task.workflow}, ${r.task.state})`);
    return r;
  },
  async claim(b) {
    const r = await control(b, "/claim");
    const how = {
      claimed: "claimed: it is yours while the board runs",
      renewed: "already yours; heartbeat renewed",
      takeover: `taken over from ${r.previous_owner} (${r.reason})`,
      forced: `taken over by force from ${r.previous_owner}`,
    }[r.outcome] || r.outcome;
    toast(`task ${r.task} (${r.state}): ${how}`);
    return r;
  },
  async release(b) {
    const r = await control(b, "/release");
    toast(`released task ${r.task} (${r.state})`);
    return r;
  },
  async next(b) {
    const r = await control(b, "/next");
    const moved = r.steps.map((s) => `${s.from} -> ${s.to}`).join(", ");
    if (r.stopped) toast(`${r.task}: ${moved}; then stopped: ${r.stopped.reason}`, true);
    else toast(`${r.task}: ${moved || `already in ${r.state}`}`);
    return r;
  },
  async complete(b) {
    const r = await control(b, "/complete");
    toast(`${r.task}: ${r.from} -> ${r.to}`);
    return r;
  },
  async land(b) {
    const holder = b.closest(".controls");
    const strategy = holder && holder.querySelector("#land-strategy");
    const push = holder && holder.querySelector("#land-push");
    const r = await call("POST", api("/land", b), {
      strategy: strategy ? strategy.value : "merge",
      push: push ? push.checked : false,
    });
    toast(`${r.task}: landed ${r.approved.slice(0, 12)} on ${r.base_branch} (${r.strategy}); `
      + (r.removed ? "worktrees and branches removed" : r.kept));
    if (r.removed) leave(b);
    return r;
  },
  async remove(b) {
    const r = await control(b, "/remove");
    toast(`removed task ${r.name}: ${r.worktrees.length} worktree(s), branches ${r.branches.join(", ") || "none"}`
      + (r.kept_in ? `; kept copies moved to ${r.kept_in}` : "")
      + (r.remote_pending ? `; ${r.remote_pending}` : ""), Boolean(r.remote_pending));
    leave(b);
    return r;
  },
  async "cancel-confirm"(b) { b.closest(".confirm").remove(); },
  // --- the agents taskproto runs (board/agents.py) ---
  async agent(b) {
    const holder = b.closest("[data-agent]");
    const agent = holder.dataset.agent;
    let body = {};
    if (b.dataset.action === "start") { // as `taskproto agent start` offers (board/agents.py)
      const field = (cls) => holder.querySelector(`.${cls}`);
      const client = field("agent-client").value;
      const prompt = field("agent-prompt").value.trim();
      body = {
        client: client === "command" ? field("agent-command").value.trim() : client,
        headless: field("agent-headless").checked,
        prompt: prompt || null,
        sandbox: field("agent-sandbox").value,
      };
    }
    const r = await call("POST", api(`/agents/${encodeURIComponent(agent)}/${b.dataset.action}`, b), body);
    toast(`${agent}: ${r.state}${r.pid ? ` (pid ${r.pid})` : ""}`);
    return r;
  },
};

const LOCAL = new Set(["comment", "cancel-comment", "cancel-confirm"]); // nothing changed on the server

document.addEventListener("click", async (e) => {
  const b = e.target.closest("[data-act]");
  if (!b || !(b.dataset.act in actions)) return;
  e.preventDefault();
  if (b.dataset.confirm && b.dataset.confirmed !== "1") {
    confirmStep(b, b.dataset.confirm, `Yes: ${b.textContent.replace("…", "").trim().toLowerCase()}`, false);
    return;
  }
  b.disabled = true;
  try {
    const r = await actions[b.dataset.act](b);
    if (r && r.warnings && r.warnings.length) { // what the CLI prints as `taskproto: warning: ...`
      toast(`${document.getElementById("toast").textContent}; warning: ${r.warnings.join("; ")}`, true);
    }
    const box = b.closest(".confirm");
    if (box) box.remove();
    if (!LOCAL.has(b.dataset.act)) refresh(); // show the new state now, not only when the stream says so
  } catch (err) {
    if (err.forcible && b.dataset.force !== "1") {
      confirmStep(b, err.message, "Do it anyway (forced, logged as you)", true); // the CLI's --force
    } else {
      const box = b.closest(".confirm");
      if (box) box.remove();
      toast(err.message, true);
    }
  } finally {
    b.disabled = false;
  }
});

const carried = sessionStorage.getItem(CARRIED);
if (carried) {
  sessionStorage.removeItem(CARRIED);
  const [text, bad] = JSON.parse(carried);
  toast(text, bad);
}
remember(document);
tick();
setInterval(tick, 5000);
connect();
offerNotifications();
