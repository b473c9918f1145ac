package org.ssbjca.bench.server;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.locks.LockSupport;

/** The MXBean behind {@link BenchControlMXBean}; calls the senders, reads the {@link Recorder}. */
public final class BenchControl implements BenchControlMXBean {

    private static final int LATENCY_CONVERSATIONS = 200;
    private static final int ARTEMIS_BATCH = 500;

    private final SsbSender ssb;
    private final ArtemisSender artemis;
    private final jakarta.transaction.TransactionManager tm;
    private final ContainerTaker taker;
    private ContainerLoop containerLoop;

    BenchControl(SsbSender ssb, ArtemisSender artemis, jakarta.transaction.TransactionManager tm,
            ContainerTaker taker) {
        this.ssb = ssb;
        this.artemis = artemis;
        this.tm = tm;
        this.taker = taker;
    }

    @Override
    public synchronized void startContainerLoop(String[] database, String statement, String queue, int threads,
            int expected) {
        if (containerLoop != null) {
            throw new IllegalStateException("the in-WildFly loop already runs");
        }
        containerLoop = ContainerLoop.start(tm, taker, database, statement, queue, threads, expected);
    }

    @Override
    public long[] takeTraceCounts() {
        return TraceCounts.takeCounts();
    }

    @Override
    public synchronized int joinContainerLoop() throws InterruptedException {
        try {
            return containerLoop.join();
        } finally {
            containerLoop = null;
        }
    }

    @Override
    public void arm(int expected) {
        Recorder.arm(expected, 0);
    }

    @Override
    public long[] await(long timeoutMillis) throws InterruptedException {
        Recorder.Run r = Recorder.current();
        r.await(timeoutMillis);
        long[] commits = r.commits();
        long[] starts = r.threadStarts();
        long[] out = java.util.Arrays.copyOf(new long[] {r.firstStart.get(), r.doneAt, commits[0],
            r.delivered.get(), r.rolledBack.get(), commits[1], r.mostPerTransaction.get()}, 7 + 9 + starts.length);
        for (int k = 0; k < 9; k++) {
            out[7 + k] = r.tenths.get(k);
        }
        System.arraycopy(starts, 0, out, 16, starts.length);
        return out;
    }

    @Override
    public void measureThreads(boolean on) {
        Recorder.measureThreads(on);
    }

    @Override
    public long[] threadCosts() {
        ThreadCosts costs = Recorder.current().threads;
        return costs == null ? new long[4] : costs.totals();
    }

    @Override
    public long[] progress() {
        Recorder.Run r = Recorder.current();
        return new long[] {r.commits()[0], r.delivered.get(), r.rolledBack.get()};
    }

    @Override
    public void fillArtemis(int count, int size) {
        for (int i = 0; i < count; i += ARTEMIS_BATCH) {
            artemis.send(i, Math.min(ARTEMIS_BATCH, count - i), size);
        }
    }

    @Override
    public void sendSsb(int conversations, int perConversation, int size) {
        List<UUID> handles = ssb.beginDialogs(conversations);
        int id = 0;
        for (UUID h : handles) {
            ssb.sendMany(h, id, perConversation, size);
            id += perConversation;
        }
    }

    /** A collection's times have millisecond resolution: a message counts as overlapping within this margin. */
    private static final long GC_MARGIN_NANOS = 1_000_000L;
    /** The last latency run's garbage collections, {start, end} in {@link System#nanoTime()}. */
    private volatile List<long[]> lastGcs = List.of();
    private volatile boolean[] lastGcOverlaps = new boolean[0];

    @Override
    public long[] latency(String system, int count, int perSecond, int size) throws InterruptedException {
        List<long[]> gcs = new java.util.concurrent.CopyOnWriteArrayList<>();
        javax.management.NotificationListener listener = gcListener(gcs);
        List<java.lang.management.GarbageCollectorMXBean> collectors =
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans();
        for (java.lang.management.GarbageCollectorMXBean c : collectors) {
            ((javax.management.NotificationEmitter) c).addNotificationListener(listener, null, null);
        }
        try {
            long[] out = latencyRun(system, count, perSecond, size, true);
            Recorder.Run r = Recorder.current();
            boolean[] overlaps = new boolean[count];
            for (int i = 0; i < count; i++) {
                for (long[] gc : gcs) {
                    overlaps[i] |= r.receivedAt[i] != 0 && gc[0] - GC_MARGIN_NANOS <= r.receivedAt[i]
                            && gc[1] + GC_MARGIN_NANOS >= r.sentAt[i];
                }
            }
            lastGcs = List.copyOf(gcs);
            lastGcOverlaps = overlaps;
            return out;
        } finally {
            for (java.lang.management.GarbageCollectorMXBean c : collectors) {
                try {
                    ((javax.management.NotificationEmitter) c).removeNotificationListener(listener);
                } catch (javax.management.ListenerNotFoundException e) {
                    // not added
                }
            }
        }
    }

    /**
     * A listener for the platform's garbage collection notifications (read through the open types, so that no
     * com.sun.management class is needed): each collection's {start, end} in {@link System#nanoTime()} (the
     * notification gives milliseconds since the JVM's start).
     */
    private static javax.management.NotificationListener gcListener(List<long[]> into) {
        long jvmStart = System.nanoTime()
                - java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
        return (notification, handback) -> {
            if ("com.sun.management.gc.notification".equals(notification.getType())
                    && notification.getUserData() instanceof javax.management.openmbean.CompositeData data
                    && data.get("gcInfo") instanceof javax.management.openmbean.CompositeData info) {
                long start = (Long) info.get("startTime");
                long end = (Long) info.get("endTime");
                into.add(new long[] {jvmStart + start * 1_000_000L, jvmStart + end * 1_000_000L});
            }
        };
    }

    @Override
    public boolean[] latencyGcOverlaps() {
        return lastGcOverlaps.clone();
    }

    @Override
    public long[] latencyGcPauses() {
        List<long[]> gcs = lastGcs;
        long longest = gcs.stream().mapToLong(g -> g[1] - g[0]).max().orElse(0);
        return new long[] {gcs.size(), longest / 1_000};
    }

    @Override
    public long[] gcTotals() {
        long count = 0;
        long millis = 0;
        for (java.lang.management.GarbageCollectorMXBean c
                : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, c.getCollectionCount());
            millis += Math.max(0, c.getCollectionTime());
        }
        return new long[] {count, millis};
    }

    @Override
    public void settle(String system, int count, int perSecond, int size) throws InterruptedException {
        latencyRun(system, count, perSecond, size, false);
    }

    /** @param recorded whether the run records its {@link LatencyEvent}s */
    private long[] latencyRun(String system, int count, int perSecond, int size, boolean recorded)
            throws InterruptedException {
        boolean toSsb = "ssb".equals(system);
        List<UUID> handles = toSsb ? ssb.beginDialogs(LATENCY_CONVERSATIONS) : List.of();
        Recorder.arm(count, count, recorded);
        Recorder.Run r = Recorder.current();
        long period = 1_000_000_000L / perSecond;
        long start = System.nanoTime() + 100_000_000L;
        for (int i = 0; i < count; i++) {
            long due = start + i * period;
            for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            if (toSsb) {
                ssb.send(handles.get(i % handles.size()), i, size);
            } else {
                artemis.send(i, 1, size);
            }
            r.sentAt[i] = System.nanoTime();
            if (recorded) {
                LatencyEvent.record(r.number, i, true);
            }
        }
        r.await(60_000);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = r.receivedAt[i] == 0 ? Long.MIN_VALUE : r.receivedAt[i] - r.sentAt[i];
        }
        return out;
    }

    @Override
    public long[] lateness(int count, int perSecond, int size, long delayMillis) throws InterruptedException {
        List<UUID> handles = ssb.beginDialogs(LATENCY_CONVERSATIONS);
        Recorder.arm(count, count, false);
        Recorder.Run r = Recorder.current();
        long period = 1_000_000_000L / perSecond;
        long start = System.nanoTime() + 100_000_000L;
        long[] dueAt = new long[count];
        for (int i = 0; i < count; i++) {
            long next = start + i * period;
            for (long wait = next - System.nanoTime(); wait > 0; wait = next - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            dueAt[i] = System.nanoTime() + delayMillis * 1_000_000L;
            ssb.sendDelayed(handles.get(i % handles.size()), i, size, delayMillis);
        }
        r.await(60_000 + delayMillis);
        long[] out = new long[count];
        for (int i = 0; i < count; i++) {
            out[i] = r.receivedAt[i] == 0 ? Long.MIN_VALUE : r.receivedAt[i] - dueAt[i];
        }
        return out;
    }

    @Override
    public long[] outbound(String system, int callers, int total, int size) throws InterruptedException {
        boolean toSsb = system.startsWith("ssb");
        boolean oneCall = "ssb-one-call".equals(system);
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong failed = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<Thread> threads = new java.util.ArrayList<>();
        for (int t = 0; t < callers; t++) {
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int id = next.getAndIncrement(); id < total; id = next.getAndIncrement()) {
                    try {
                        if (oneCall) {
                            ssb.beginAndSendInOneCall(id, size);
                        } else if (toSsb) {
                            ssb.beginAndSend(id, size);
                        } else {
                            artemis.send(id, 1, size);
                        }
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                }
            }, "bench-outbound-" + t);
            threads.add(thread);
            thread.start();
        }
        long start = System.nanoTime();
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        return new long[] {System.nanoTime() - start, failed.get()};
    }
}
