extends Node2D
# Draws a fixed picture, saves the viewport as $SHOT at frame $FRAMES (default 20) and quits:
# the Godot 3 (GLES3) case of scripts/apps_compare.sh.

var frames = 0
var last = int(OS.get_environment("FRAMES")) if OS.has_environment("FRAMES") else 20

func _draw():
	draw_rect(Rect2(10, 10, 120, 80), Color(1, 0, 0))
	draw_circle(Vector2(200, 120), 60, Color(0, 0.5, 1))
	draw_line(Vector2(0, 230), Vector2(320, 150), Color(0.2, 1, 0.2), 4.0)

func _process(_delta):
	frames += 1
	update()
	if frames == last:
		var img = get_viewport().get_texture().get_data()
		img.flip_y()
		img.save_png(OS.get_environment("SHOT"))
		get_tree().quit()
