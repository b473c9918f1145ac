package org.ssbjca.sample.workqueue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many times each work item was handed to {@link WorkItemProcessor}, whether its transaction then committed or
 * not, kept in memory so that it survives rollbacks. The work log in the database holds what committed; this holds
 * every attempt, so a test can tell "processed once" from "processed once, after a rolled-back attempt".
 */
public final class WorkDeliveries {

    private static final Map<String, Map<Integer, AtomicInteger>> RUNS = new ConcurrentHashMap<>();

    private WorkDeliveries() {
    }

    static void record(String runId, int item) {
        RUNS.computeIfAbsent(runId, r -> new ConcurrentHashMap<>()).computeIfAbsent(item, i -> new AtomicInteger())
                .incrementAndGet();
    }

    /**
     * @param runId a run
     * @return how many deliveries there were in all
     */
    public static int total(String runId) {
        return RUNS.getOrDefault(runId, Map.of()).values().stream().mapToInt(AtomicInteger::get).sum();
    }

    /**
     * @param runId a run
     * @return how many distinct items were delivered more than once
     */
    public static long deliveredMoreThanOnce(String runId) {
        return RUNS.getOrDefault(runId, Map.of()).values().stream().filter(n -> n.get() > 1).count();
    }

    /** Forgets a run. */
    public static void forget(String runId) {
        RUNS.remove(runId);
    }
}
