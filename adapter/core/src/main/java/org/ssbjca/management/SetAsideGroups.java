package org.ssbjca.management;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.ssbjca.backend.table.SetAsideRow;

/**
 * Groups a table activation's set-aside rows by the {@link FailureShape} of their error, as the dead letters are
 * grouped: one group per shape, the largest first; rows without an error make one group,
 * {@value FailureShape#NO_ERROR}. A group's first and last seen are the earliest and latest of its rows' error times
 * (each row's last failure), when the table has an error time column. Stateless; any thread.
 */
final class SetAsideGroups {

    /** Keys a group shows. */
    static final int SAMPLE = 5;

    private SetAsideGroups() {
    }

    /**
     * Returns the groups, the largest first.
     *
     * @param rows the set-aside rows, in key order
     */
    static List<SetAsideGroupInfo> of(List<SetAsideRow> rows) {
        Map<String, List<SetAsideRow>> groups = new LinkedHashMap<>();
        for (SetAsideRow r : rows) {
            groups.computeIfAbsent(FailureShape.of(r.error()), k -> new ArrayList<>()).add(r);
        }
        List<SetAsideGroupInfo> out = new ArrayList<>();
        groups.entrySet().stream().sorted(Comparator.comparingInt(e -> -e.getValue().size())).forEach(e -> {
            List<SetAsideRow> g = e.getValue();
            String error = g.get(0).error();
            List<Instant> times = g.stream().map(SetAsideRow::failedAt).filter(Objects::nonNull).sorted().toList();
            out.add(new SetAsideGroupInfo(e.getKey(), FailureShape.exceptionClass(error), g.size(),
                    times.isEmpty() ? null : Date.from(times.get(0)),
                    times.isEmpty() ? null : Date.from(times.get(times.size() - 1)),
                    g.stream().limit(SAMPLE).map(r -> String.valueOf(r.key())).toList(), error));
        });
        return out;
    }

    /**
     * Returns the keys of the group's rows.
     *
     * @param rows the set-aside rows
     * @param key a group's key, as {@link #of} gave it
     */
    static List<Object> keys(List<SetAsideRow> rows, String key) {
        return rows.stream().filter(r -> key.equals(FailureShape.of(r.error()))).map(SetAsideRow::key).toList();
    }

    /**
     * Returns the rows whose error contains the text, case ignored; all of them for an empty text.
     *
     * @param rows the set-aside rows
     * @param text the text
     */
    static List<SetAsideRowInfo> search(List<SetAsideRow> rows, String text) {
        String wanted = text.toLowerCase(Locale.ROOT);
        return rows.stream().filter(r -> wanted.isEmpty() || (r.error() != null
                && r.error().toLowerCase(Locale.ROOT).contains(wanted)))
                .map(r -> new SetAsideRowInfo(String.valueOf(r.key()), r.error())).toList();
    }
}
