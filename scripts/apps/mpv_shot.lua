-- Takes a screenshot of the window (the GL-rendered picture) once the first frame after the
-- start is shown, into $SHOT, and quits: the mpv case of scripts/apps_compare.sh.
local out = os.getenv("SHOT")
mp.register_event("playback-restart", function()
    mp.add_timeout(0.3, function()
        mp.commandv("screenshot-to-file", out, "window")
        mp.command("quit")
    end)
end)
