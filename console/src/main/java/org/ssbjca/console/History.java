package org.ssbjca.console;

import java.util.ArrayList;
import java.util.List;

/**
 * The latest points of one series (an activation, or all of them), in a ring of fixed size: once full, each new point
 * replaces the oldest. Thread safe (one sampler writes, requests read).
 */
final class History {

    private final Point[] ring;
    private int next;
    private int size;
    private Sample last;

    /** @param capacity how many points it keeps, at least 1 */
    History(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " is below 1");
        }
        ring = new Point[capacity];
    }

    /**
     * Adds the interval from the previous sample to this one; the first sample (and the first after {@link #gap()})
     * only starts an interval.
     *
     * @param sample the activation's sample, later than the previous one
     * @return the point added, or null when none was
     */
    synchronized Point add(Sample sample) {
        Sample before = last;
        last = sample;
        if (before == null) {
            return null;
        }
        Point p = Point.between(before, sample);
        add(p);
        return p;
    }

    /** Adds a point, the latest. */
    synchronized void add(Point point) {
        ring[next] = point;
        next = (next + 1) % ring.length;
        size = Math.min(size + 1, ring.length);
    }

    /** The activation was missing from a sampling: the next sample starts a new interval. */
    synchronized void gap() {
        last = null;
    }

    /** @return the time of the latest point, or -1 when there is none */
    synchronized long latestMillis() {
        return size == 0 ? -1 : ring[(next - 1 + ring.length) % ring.length].millis();
    }

    /** @return the points, oldest first */
    synchronized List<Point> points() {
        List<Point> out = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            out.add(ring[(next - size + i + ring.length) % ring.length]);
        }
        return out;
    }
}
