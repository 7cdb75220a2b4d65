-- expect: package.loadlib is not allowed in Marionette scripts (sandbox)
package.loadlib("/lib/x86_64-linux-gnu/libc.so.6", "system")
