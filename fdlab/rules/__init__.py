"""The rules engine: movement, dice, presets, race state and steps (pure Python, no UI)."""
