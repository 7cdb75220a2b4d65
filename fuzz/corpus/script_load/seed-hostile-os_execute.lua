-- expect: main.lua:2: os.execute is not allowed in Marionette scripts (sandbox)
os.execute("touch /tmp/marionette-hostile")
