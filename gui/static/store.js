// What a reload keeps: the person's choices (game, players, level, clock, tab) for good, and the
// game being played for this tab (its start, moves and clocks), so a reload resumes it.

const SETTINGS = "isaac-gui.settings";
const GAME = "isaac-gui.game";

function read(storage, key) {
  try {
    const value = JSON.parse(storage.getItem(key) || "null");
    return value && typeof value === "object" ? value : null;
  } catch (e) {
    return null;
  }
}

function write(storage, key, value) {
  try {
    if (value === null) storage.removeItem(key);
    else storage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // storage full or switched off: the page works on, it only forgets
  }
}

export const loadSettings = () => read(localStorage, SETTINGS) || {};
export const saveSettings = (settings) => write(localStorage, SETTINGS, {...loadSettings(), ...settings});
export const loadGame = () => read(sessionStorage, GAME);
export const saveGame = (game) => write(sessionStorage, GAME, game);
