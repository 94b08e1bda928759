// Lets a Node process switch callgrind's event collection on and off around the code it
// measures, and dump the count under a label: node has no way to issue valgrind client
// requests of its own. Outside valgrind every request is a no-op.
#include <node_api.h>
#include <valgrind/callgrind.h>

static napi_value Toggle(napi_env env, napi_callback_info info) {
  (void)env;
  (void)info;
  CALLGRIND_TOGGLE_COLLECT;
  return NULL;
}

static napi_value Dump(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  char label[256] = {0};
  size_t length = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc > 0) napi_get_value_string_utf8(env, argv[0], label, sizeof label, &length);
  CALLGRIND_DUMP_STATS_AT(label);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_property_descriptor properties[] = {
      {"toggle", 0, Toggle, 0, 0, 0, napi_default, 0},
      {"dump", 0, Dump, 0, 0, 0, napi_default, 0},
  };
  napi_define_properties(env, exports, 2, properties);
  return exports;
}
