package org.ssbjca.bench.server;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the delivery threads of one run cost between deliveries, read on the threads themselves: each thread's CPU time
 * and the bytes it allocated at its first delivery of the run and at its latest ({@code com.sun.management}'s
 * {@code ThreadMXBean}). The difference covers whole cycles of that thread (RECEIVE, the container's steps, the bean,
 * the commit, the wait for the next message), and nothing of WildFly's other threads (the garbage collector, the JIT
 * compiler, the adapter's background tasks). Both readings cost the thread some CPU of their own, on either consumer
 * alike. Thread safe.
 */
public final class ThreadCosts {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** By thread id: {CPU ns, bytes} at the first delivery, then at the latest, then the deliveries counted. */
    private final Map<Long, long[]> byThread = new ConcurrentHashMap<>();

    /** A delivery begins on the calling thread. */
    void delivery() {
        long cpu = THREADS.getCurrentThreadCpuTime();
        long bytes = THREADS.getCurrentThreadAllocatedBytes();
        long[] t = byThread.computeIfAbsent(Thread.currentThread().getId(), k -> new long[] {cpu, bytes, 0, 0, 0});
        synchronized (t) {
            t[2] = cpu;
            t[3] = bytes;
            t[4]++;
        }
    }

    /**
     * @return {CPU ns, bytes allocated, cycles} summed over the threads from each one's first delivery to its latest
     *     (a thread's cycles are its deliveries but the first), and the number of threads
     */
    long[] totals() {
        long[] sum = new long[4];
        for (long[] t : byThread.values()) {
            synchronized (t) {
                sum[0] += t[2] - t[0];
                sum[1] += t[3] - t[1];
                sum[2] += Math.max(0, t[4] - 1);
            }
            sum[3]++;
        }
        return sum;
    }
}
