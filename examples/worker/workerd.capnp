# workerd config for the example Worker: one module worker, no Node.js
# compatibility flag. Build the bundle first (see worker.ts), then:
#   workerd serve examples/worker/workerd.capnp --socket-addr=http=127.0.0.1:8787
using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "tools", worker = .tools)],
  sockets = [(name = "http", address = "127.0.0.1:8787", http = (), service = "tools")],
);

const tools :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "../../.tools/examples/worker.js")],
  compatibilityDate = "2026-11-01",
);
