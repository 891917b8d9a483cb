/** The memory store's named leases (the billing run's lock, a renewal's claim): one process, one Map. */
import type { LeaseMethods } from '../store';

export interface MemoryLeases {
  methods: LeaseMethods;
  deleteExpired(now: number): number;
}

export function memoryLeases(): MemoryLeases {
  const leases = new Map<string, { holder: string; expiresAt: number }>();
  return {
    deleteExpired(now) {
      let deleted = 0;
      for (const [name, lease] of leases) if (lease.expiresAt <= now && leases.delete(name)) deleted++;
      return deleted;
    },
    methods: {
      async tryLease(name, holder, now, leaseMs) {
        const lease = leases.get(name);
        if (lease && lease.holder !== holder && lease.expiresAt > now) return false;
        leases.set(name, { holder, expiresAt: now + leaseMs });
        return true;
      },
      async releaseLease(name, holder) {
        return leases.get(name)?.holder === holder && leases.delete(name);
      },
    },
  };
}
