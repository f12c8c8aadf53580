# The workerd config of the conformance run: one module worker that imports
# the built core by its package name and runs the checks when fetched.
# The run passes the socket's address with --socket-addr=http=127.0.0.1:PORT.
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "conformance", worker = .conformance)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "conformance")],
);

const conformance :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "../../.tools/conformance/worker.js"),
    (name = "@salvor/tools", esModule = embed "../../dist/mod.js"),
    (name = "@salvor/tools/dyn", esModule = embed "../../dist/dyn.js"),
  ],
  compatibilityDate = "2026-11-01",
);
