/* test_settings.c - the NDTILE_* parser (src/runtime/env.c): counts and
 * sizes with their suffixes, the errors that name the variable and the
 * forms, ranges, ndt_init failing for a variable set wrong, and the values
 * in force. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ndtile.h"
#include "check.h"

static void parses(const char *name, const char *text, int64_t want) {
  int64_t v = -7;
  ndt_status st = ndt_setting_parse(name, text, &v);
  EXPECT(st == NDT_OK && v == want, "%s=%s: status %d value %lld, want %lld (%s)", name, text,
         (int)st, (long long)v, (long long)want, st ? ndt_last_error() : "");
}

static void rejects(const char *name, const char *text, const char *msg) {
  int64_t v = -7;
  ndt_status st = ndt_setting_parse(name, text, &v);
  EXPECT(st == NDT_ERR_VALUE && v == -7 && strstr(ndt_last_error(), name) &&
         strstr(ndt_last_error(), msg), "%s=%s: status %d, message '%s'", name, text, (int)st,
         ndt_last_error());
}

int main(void) {
  parses("NDTILE_TILE_BYTES", "4096", 4096);
  parses("NDTILE_TILE_BYTES", "1G", (int64_t)1 << 30);   /* was 1 byte */
  parses("NDTILE_TILE_BYTES", "512k", 512 << 10);
  parses("NDTILE_TILE_BYTES", "2MiB", 2 << 20);
  parses("NDTILE_TILE_BYTES", "2 MB", 2 << 20);
  parses("NDTILE_TILE_BYTES", "1.5M", 3 << 19);
  parses("NDTILE_MAX_MEMORY", "1T", (int64_t)1 << 40);
  parses("NDTILE_WORKERS", "3", 3);
  parses("NDTILE_INLINE_ELEMS", "0", 0);                 /* was the default */
  parses("NDTILE_INLINE_ELEMS", "32k", 32768);
  parses("NDTILE_CACHE_BYTES", "0", 0);
  rejects("NDTILE_WORKERS", "abc", "is not a count");
  rejects("NDTILE_WORKERS", "0", "out of range");
  rejects("NDTILE_WORKERS", "2000", "from 1 to 1024");
  rejects("NDTILE_WORKERS", "1.5", "whole number");
  rejects("NDTILE_WORKERS", "-2", "is not a count");
  rejects("NDTILE_TILE_BYTES", "abc", "k, M, G or T");
  rejects("NDTILE_TILE_BYTES", "1G5", "is not a size");
  rejects("NDTILE_TILE_BYTES", "inf", "is not a size");
  rejects("NDTILE_TILE_BYTES", "-4096", "is not a size");
  rejects("NDTILE_TILE_BYTES", "0", "out of range");
  rejects("NDTILE_MAX_PENDING", "", "is not a count");
  /* the observing settings (obs17): a delay in seconds, and a word */
  parses("NDTILE_PROGRESS", "0", 0);
  parses("NDTILE_PROGRESS", "5", 5);
  rejects("NDTILE_PROGRESS", "soon", "is not a count");
  rejects("NDTILE_PROGRESS", "100000", "out of range");
  parses("NDTILE_FALLBACK", "warn", 0);
  parses("NDTILE_FALLBACK", "ignore", 1);
  parses("NDTILE_FALLBACK", " Summary ", 3);
  parses("NDTILE_FALLBACK", "error", 2);
  parses("NDTILE_FALLBACK", "off", 1);
  rejects("NDTILE_FALLBACK", "sumary", "is not one of the accepted words: warn, ignore, error, summary");
  rejects("NDTILE_FALLBACK", "", "is not one of");
  EXPECT(!strcmp(ndt_setting_choice("NDTILE_FALLBACK", 3), "summary") &&
         !strcmp(ndt_setting_choice("NDTILE_FALLBACK", 1), "ignore") &&
         !ndt_setting_choice("NDTILE_FALLBACK", 9) && !ndt_setting_choice("NDTILE_WORKERS", 0),
         "choice names");
  int64_t v;
  EXPECT(ndt_setting_parse("NDTILE_NOPE", "1", &v) == NDT_ERR_VALUE &&
         strstr(ndt_last_error(), "not an ndtile setting"), "unknown name");
  int n = 0;
  while (ndt_setting_name(n)) n++;
  EXPECT(n >= 9 && !strcmp(ndt_setting_name(0), "NDTILE_WORKERS"), "names (%d)", n);
  /* a variable set wrong: ndt_init fails, naming it; set right: it runs */
  setenv("NDTILE_TILE_BYTES", "12 parsecs", 1);
  ndt_config cfg = {.workers = 2, .tile_bytes = 0, .inline_elems = -1};
  EXPECT(ndt_init(&cfg) == NDT_ERR_VALUE && strstr(ndt_last_error(), "NDTILE_TILE_BYTES=12 parsecs"),
         "ndt_init with a bad variable: %s", ndt_last_error());
  setenv("NDTILE_TILE_BYTES", "64k", 1);
  setenv("NDTILE_INLINE_ELEMS", "0", 1);
  OK(ndt_init(&cfg));
  OK(ndt_setting_value("NDTILE_TILE_BYTES", &v));
  EXPECT(v == 65536, "tile bytes in force %lld", (long long)v);
  OK(ndt_setting_value("NDTILE_INLINE_ELEMS", &v));
  EXPECT(v == 0, "inline elems in force %lld", (long long)v);
  OK(ndt_setting_value("NDTILE_WORKERS", &v));
  EXPECT(v == 2, "workers in force %lld", (long long)v);
  EXPECT(ndt_setting_value("NDTILE_NOPE", &v) == NDT_ERR_VALUE, "unknown name in force");
  OK(ndt_setting_value("NDTILE_PROGRESS", &v));
  EXPECT(v == 2, "progress delay in force %lld", (long long)v);
  /* the build and the memories (ndtile.show_config, memory_stats) */
  ndt_build_info bi;
  ndt_build_info_get(&bi);
  EXPECT(bi.workers == 2 && bi.tile_bytes == 65536 && bi.inline_elems == 0 && bi.ranks >= 1 &&
         bi.simd_level >= 0 && bi.simd_level <= 3 && strlen(bi.sleef) >= 5 && *bi.blas &&
         strstr(bi.blas_config, "OpenBLAS") && *bi.blas_path, "build info: %d %lld %s %s %s",
         bi.workers, (long long)bi.tile_bytes, bi.sleef, bi.blas_config, bi.blas_path);
  ndt_memory_stats ms0, ms1;
  EXPECT(ndt_memory_stats_get(0, &ms0) == 0 && !strcmp(ms0.name, "host") && ms0.capacity > 0,
         "host memory stats");
  EXPECT(ndt_memory_stats_get(99, &ms1) == -1, "no memory 99");
  int64_t shp[1] = {1 << 20};
  ndt_array *a = NULL;
  double one = 1.0;
  OK(ndt_full(&a, 1, shp, NDT_FLOAT64, &one, NDT_FLOAT64));
  OK(ndt_sync());
  ndt_memory_stats_get(0, &ms1);
  EXPECT(ms1.in_use - ms0.in_use >= (8 << 20) && ms1.peak >= ms1.in_use &&
         ms1.reserved - ms0.reserved == (8 << 20), "in use %lld -> %lld, reserved %lld -> %lld",
         (long long)ms0.in_use, (long long)ms1.in_use, (long long)ms0.reserved,
         (long long)ms1.reserved);
  ndt_free(a);
  OK(ndt_sync());
  ndt_memory_stats_get(0, &ms1);
  EXPECT(ms1.in_use <= ms0.in_use && ms1.reserved == ms0.reserved, "freed: in use %lld",
         (long long)ms1.in_use);
  ndt_finalize();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
