# Blender windowed session: a screenshot of the window into $SHOT after 2 s, then quit.
import bpy, os

def shoot():
    win = bpy.context.window_manager.windows[0]
    area = win.screen.areas[0]
    with bpy.context.temp_override(window=win, screen=win.screen, area=area):
        bpy.ops.screen.screenshot(filepath=os.environ["SHOT"])
    bpy.ops.wm.quit_blender()
    return None

bpy.app.timers.register(shoot, first_interval=2.0)
