package org.ssbjca.management;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ssbjca.backend.DeadLetter;

/**
 * Groups dead letters by {@link FailureShape}: one group per shape with its count, first and last time and its oldest
 * letter, the largest group first. Not thread-safe: one per listing.
 */
final class DeadLetterGroups {

    private final Map<String, Group> groups = new LinkedHashMap<>();

    /** @param letters dead letters, oldest first, added to their groups */
    void add(List<DeadLetter> letters) {
        for (DeadLetter d : letters) {
            groups.computeIfAbsent(FailureShape.of(d.lastError()), k -> new Group(k, d)).add(d);
        }
    }

    /** Returns the groups, the largest first, then the one seen last. */
    List<DeadLetterGroupInfo> list() {
        List<DeadLetterGroupInfo> out = new ArrayList<>();
        groups.values().stream().sorted(Comparator.comparingLong((Group g) -> -g.count)
                .thenComparing(g -> g.last, Comparator.nullsLast(Comparator.reverseOrder())))
                .forEach(g -> out.add(new DeadLetterGroupInfo(g.key, FailureShape.exceptionClass(g.example.lastError()),
                        g.count, date(g.first), date(g.last), g.example.id(), g.example.lastError())));
        return out;
    }

    private static Date date(Instant i) {
        return i == null ? null : Date.from(i);
    }

    private static final class Group {
        final String key;
        final DeadLetter example;
        long count;
        Instant first;
        Instant last;

        Group(String key, DeadLetter example) {
            this.key = key;
            this.example = example;
        }

        void add(DeadLetter d) {
            count++;
            Instant at = d.deadLetteredAt();
            if (at != null) {
                first = first == null || at.isBefore(first) ? at : first;
                last = last == null || at.isAfter(last) ? at : last;
            }
        }
    }
}
