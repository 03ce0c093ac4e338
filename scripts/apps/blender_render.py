# Blender background render (Eevee, 160x120, one sample) into $SHOT: scripts/apps_compare.sh.
import bpy, os
s = bpy.context.scene
s.render.engine = 'BLENDER_EEVEE'
s.render.resolution_x = 160
s.render.resolution_y = 120
s.render.resolution_percentage = 100
s.eevee.taa_render_samples = 1
s.render.image_settings.file_format = 'PNG'
s.render.filepath = os.environ["SHOT"]
bpy.ops.render.render(write_still=True)
