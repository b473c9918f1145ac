package org.ssbjca.sample.scheduler;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** Prints a scheduler's execution log as a table with a time bar per task, and a line per stage. */
public final class StageTimeline {

    private static final int WIDTH = 48;

    private StageTimeline() {
    }

    /**
     * @param tasks one scheduler's tasks (from {@link ExecutionLog#tasks})
     * @return the table; times are seconds from the first start
     */
    public static String render(List<TaskRecord> tasks) {
        Instant origin = tasks.stream().map(TaskRecord::startedAt).filter(Objects::nonNull).min(Instant::compareTo)
                .orElse(null);
        Instant last = tasks.stream().map(TaskRecord::endedAt).filter(Objects::nonNull).max(Instant::compareTo)
                .orElse(null);
        StringBuilder b = new StringBuilder();
        b.append(String.format("  %4s %6s  %-14s %-32s %8s %8s%n", "task", "stage", "name", "reader", "start", "end"));
        if (origin == null || last == null) {
            tasks.forEach(t -> b.append(String.format("  %4d %6d  %-14s %s%n", t.taskNo(), t.stage(), t.task(),
                    t.state())));
            return b.toString();
        }
        double span = Math.max(1, Duration.between(origin, last).toMillis());
        for (TaskRecord t : tasks) {
            b.append(String.format("  %4d %6d  %-14s %-32s %8s %8s  |%s|%n", t.taskNo(), t.stage(), clip(t.task(), 14),
                    clip(t.reader() == null ? "-" : t.reader(), 32), seconds(origin, t.startedAt()),
                    seconds(origin, t.endedAt()), bar(origin, span, t)));
        }
        Map<Integer, Instant[]> stages = new TreeMap<>();
        Map<Integer, Integer> sizes = new TreeMap<>();
        for (TaskRecord t : tasks) {
            if (t.startedAt() == null || t.endedAt() == null) {
                continue;
            }
            sizes.merge(t.stage(), 1, Integer::sum);
            stages.merge(t.stage(), new Instant[] {t.startedAt(), t.endedAt(), t.startedAt(), t.endedAt()},
                    (a, n) -> new Instant[] {min(a[0], n[0]), max(a[1], n[1]), max(a[2], n[2]), min(a[3], n[3])});
        }
        stages.forEach((stage, w) -> b.append(String.format("  stage %d: %d task(s) from %s to %s%s%n", stage,
                sizes.get(stage), seconds(origin, w[0]), seconds(origin, w[1]),
                sizes.get(stage) > 1 && w[2].isBefore(w[3]) ? ", all of them running from " + seconds(origin, w[2])
                        + " to " + seconds(origin, w[3]) : "")));
        return b.toString();
    }

    private static String bar(Instant origin, double span, TaskRecord t) {
        char[] line = new char[WIDTH];
        java.util.Arrays.fill(line, ' ');
        if (t.startedAt() != null) {
            int from = (int) Math.round(Duration.between(origin, t.startedAt()).toMillis() / span * (WIDTH - 1));
            int to = t.endedAt() == null ? WIDTH - 1
                    : (int) Math.round(Duration.between(origin, t.endedAt()).toMillis() / span * (WIDTH - 1));
            for (int i = from; i <= to && i < WIDTH; i++) {
                line[i] = '#';
            }
        }
        return new String(line);
    }

    private static String seconds(Instant origin, Instant t) {
        return t == null ? "-" : String.format("%.3fs", Duration.between(origin, t).toMillis() / 1000.0);
    }

    private static String clip(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "~";
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
