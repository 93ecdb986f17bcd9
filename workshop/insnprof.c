// SPDX-License-Identifier: GPL-2.0
/*
 * insnprof: a QEMU TCG plugin that counts the guest instructions executed
 * from each translation block start address, for `make bench-profile`.
 * Under -icount shift=0 a guest nanosecond is a guest instruction, so the
 * counts say where the instructions of a benchmark went, function by
 * function once mapped to the kernel's symbols.
 *
 *   qemu-system-... -plugin ./insnprof.so,out=FILE[,min=ADDR]
 *
 * At exit FILE gets one line "VADDR COUNT" (hex, decimal) per start
 * address at or above min (default: every address).
 *
 * QEMU's plugin header is not packaged in Debian, so the few declarations
 * of the plugin API (version 1, QEMU 7.2) that this uses are written out
 * here.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct {
	const char *target_name;
	struct { int min; int cur; } version;
	bool system_emulation;
	union { struct { int smp_vcpus; int max_vcpus; } system; };
} qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
	enum qemu_plugin_op op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, void *userdata), void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define SLOTS (1u << 22)	/* translation block start addresses */

struct slot {
	uint64_t vaddr;
	uint64_t count;
};

static struct slot *table;
static unsigned int used;
static uint64_t min_vaddr;
static const char *out_path = "insnprof.out";
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct slot *lookup(uint64_t vaddr)
{
	uint64_t h = vaddr * 0x9e3779b97f4a7c15ull;
	unsigned int i = (unsigned int)(h >> 40) & (SLOTS - 1);

	for (;;) {
		struct slot *s = &table[i];

		if (s->vaddr == vaddr && s->count != UINT64_MAX)
			return s;
		if (s->count == UINT64_MAX) {	/* empty */
			if (used >= SLOTS - SLOTS / 8)
				return NULL;
			used++;
			s->vaddr = vaddr;
			s->count = 0;
			return s;
		}
		i = (i + 1) & (SLOTS - 1);
	}
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	struct slot *s;

	if (vaddr < min_vaddr)
		return;
	pthread_mutex_lock(&lock);
	s = lookup(vaddr);
	pthread_mutex_unlock(&lock);
	if (s)
		qemu_plugin_register_vcpu_tb_exec_inline(tb,
			QEMU_PLUGIN_INLINE_ADD_U64, &s->count,
			qemu_plugin_tb_n_insns(tb));
}

static void at_exit(qemu_plugin_id_t id, void *userdata)
{
	FILE *f = fopen(out_path, "w");
	unsigned int i;

	if (!f)
		return;
	for (i = 0; i < SLOTS; i++)
		if (table[i].count && table[i].count != UINT64_MAX)
			fprintf(f, "%llx %llu\n",
				(unsigned long long)table[i].vaddr,
				(unsigned long long)table[i].count);
	fclose(f);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4))
			out_path = strdup(argv[i] + 4);
		else if (!strncmp(argv[i], "min=", 4))
			min_vaddr = strtoull(argv[i] + 4, NULL, 0);
		else
			return -1;
	}
	table = malloc(sizeof(*table) * SLOTS);
	if (!table)
		return -1;
	memset(table, 0xff, sizeof(*table) * SLOTS);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
