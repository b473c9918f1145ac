package org.ssbjca.bench;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pg_stat_statements} read whole at one moment: the statement profiles are the difference of a reading before a
 * run and one after it, so that the statistics are never reset while the benchmark measures (a reset empties the
 * server's table of statements, whose next executions must each make their entry again under an exclusive lock).
 *
 * @param statements each statement's totals by its entry's key (user, database, query id, top level or not)
 */
record StatementCounts(Map<String, Totals> statements) {

    /**
     * One statement's totals, or their difference between two readings.
     *
     * @param query the normalised text
     * @param calls executions
     * @param execMillis their execution time, summed
     * @param plans plannings
     * @param planMillis their planning time, summed
     */
    record Totals(String query, long calls, double execMillis, long plans, double planMillis) {

        /** @return the mean execution time, ms (NaN without calls) */
        double meanExecMillis() {
            return calls == 0 ? Double.NaN : execMillis / calls;
        }

        /** @return the mean planning time, ms (0 without plannings) */
        double meanPlanMillis() {
            return plans == 0 ? 0 : planMillis / plans;
        }

        /** @return these totals less {@code before}'s, or these whole when the entry was made anew since */
        Totals since(Totals before) {
            if (before == null || before.calls > calls) {
                return this;
            }
            return new Totals(query, calls - before.calls, execMillis - before.execMillis, plans - before.plans,
                    planMillis - before.planMillis);
        }
    }

    /** @return every statement's totals now, in one statement */
    static StatementCounts read(BenchPostgres pg) throws SQLException {
        Map<String, Totals> statements = new HashMap<>();
        try (Connection c = pg.connect(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT userid, dbid, queryid, toplevel, calls, total_exec_time, plans,"
                        + " total_plan_time, query FROM pg_stat_statements")) {
            while (rs.next()) {
                String key = rs.getLong(1) + "/" + rs.getLong(2) + "/" + rs.getLong(3) + "/" + rs.getBoolean(4);
                statements.put(key, new Totals(rs.getString(9), rs.getLong(5), rs.getDouble(6), rs.getLong(7),
                        rs.getDouble(8)));
            }
        }
        return new StatementCounts(Map.copyOf(statements));
    }

    /** @return what ran since {@code before}: the statements called in between, with those calls' totals */
    List<Totals> since(StatementCounts before) {
        List<Totals> ran = new ArrayList<>();
        statements.forEach((key, now) -> {
            Totals between = now.since(before.statements.get(key));
            if (between.calls > 0) {
                ran.add(between);
            }
        });
        return ran;
    }
}
