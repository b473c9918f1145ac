package org.ssbjca.console;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The console's memory of the activations: one {@link History} per activation and one for all of them, each holding
 * the last hour at the sampling period. It lives in the console's memory only: a restart or redeploy of the console
 * starts it empty. Thread safe: one sampler records, requests read.
 */
final class Histories {

    /** How often the sampler reads the MXBeans. */
    static final int PERIOD_SECONDS = 5;
    /** How many points a history keeps: one hour. */
    static final int CAPACITY = 3600 / PERIOD_SECONDS;

    private final int capacity;
    private final Map<String, History> activations = new ConcurrentHashMap<>();
    private final History overall;

    /** @param capacity how many points each history keeps */
    Histories(int capacity) {
        this.capacity = capacity;
        this.overall = new History(capacity);
    }

    /**
     * Records one sampling of every activation there is: activations missing from it get a gap (their next sample
     * starts a new interval), and those with no point in the span of a full ring are forgotten.
     *
     * @param millis when the sampling ran
     * @param samples the samples by activation
     */
    void record(long millis, Map<String, Sample> samples) {
        List<Point> points = new ArrayList<>();
        for (Map.Entry<String, Sample> e : samples.entrySet()) {
            Point p = activations.computeIfAbsent(e.getKey(), k -> new History(capacity)).add(e.getValue());
            if (p != null) {
                points.add(p);
            }
        }
        long span = (long) capacity * PERIOD_SECONDS * 1000;
        activations.entrySet().removeIf(e -> {
            if (samples.containsKey(e.getKey())) {
                return false;
            }
            e.getValue().gap();
            long latest = e.getValue().latestMillis();
            return latest < 0 || millis - latest > span;
        });
        if (!points.isEmpty()) {
            overall.add(Point.overall(millis, points));
        }
    }

    /** @return all activations' history */
    History overall() {
        return overall;
    }

    /**
     * @param activation an activation's name
     * @return its history, when the console has one
     */
    Optional<History> of(String activation) {
        return Optional.ofNullable(activations.get(activation));
    }

    /** @return the activations with a history, sorted */
    List<String> names() {
        return new ArrayList<>(new TreeSet<>(activations.keySet()));
    }
}
