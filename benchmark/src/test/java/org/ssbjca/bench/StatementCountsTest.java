package org.ssbjca.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link StatementCounts#since}: what ran between two readings of pg_stat_statements. */
class StatementCountsTest {

    private static StatementCounts.Totals totals(String query, long calls, double exec, long plans, double plan) {
        return new StatementCounts.Totals(query, calls, exec, plans, plan);
    }

    @Test
    void eachStatementCountsOnlyTheCallsBetweenTheReadings() {
        StatementCounts before = new StatementCounts(Map.of(
                "1/1/10/true", totals("RECEIVE", 100, 50, 2, 1),
                "1/1/11/true", totals("IDLE", 7, 1, 1, 0.5)));
        StatementCounts after = new StatementCounts(Map.of(
                "1/1/10/true", totals("RECEIVE", 1_100, 250, 3, 1.5),
                "1/1/11/true", totals("IDLE", 7, 1, 1, 0.5),
                "1/1/12/true", totals("NEW", 4, 2, 4, 2)));
        List<StatementCounts.Totals> ran = after.since(before);
        assertEquals(2, ran.size(), "the statement not called in between is left out: " + ran);
        StatementCounts.Totals receive =
                ran.stream().filter(t -> t.query().equals("RECEIVE")).findFirst().orElseThrow();
        assertEquals(totals("RECEIVE", 1_000, 200, 1, 0.5), receive);
        assertEquals(0.2, receive.meanExecMillis(), 1e-9);
        assertEquals(0.5, receive.meanPlanMillis(), 1e-9);
        assertEquals(totals("NEW", 4, 2, 4, 2), ran.stream().filter(t -> t.query().equals("NEW")).findFirst()
                .orElseThrow(), "a statement first seen after the first reading counts whole");
    }

    @Test
    void anEntryMadeAnewSinceTheFirstReadingCountsWhole() {
        // pg_stat_statements evicted it and made it again: fewer calls than before
        StatementCounts.Totals now = totals("RECEIVE", 30, 6, 1, 0.2);
        assertEquals(now, now.since(totals("RECEIVE", 500, 90, 2, 1)));
        assertEquals(0, totals("NONE", 0, 0, 0, 0).meanPlanMillis());
    }
}
