package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.ssbjca.api.Conversation;
import org.ssbjca.api.DialogOptions;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.conformance.PostgresServer;

/**
 * A sender runs {@code beginDialogAndSend}, or a SEND on an open dialog (a reply), once per call on a connection that
 * lives long: PostgreSQL must not plan their statements again at every execution (planning them costs more than
 * running them). They are kept prepared on the server and settle on a generic plan, which must stay cheap when the
 * tables grow under it with statistics that say they are empty (docs/design/postgresql-receive.md).
 */
class SendPlanCacheTest {

    private static final PortableSql SQL = PortableSql.of(Dialect.POSTGRESQL);
    private static final byte[] BODY = "work".getBytes(StandardCharsets.UTF_8);
    private static final int EXECUTIONS = 30;
    /** Dialogs begun on another connection after the plans settled, one message each. */
    private static final int GROWTH = 3_000;
    /** Calls of each verb measured once the tables have grown. */
    private static final int CALLS = 300;
    /** The tables that grew, and the rows of them a call may read by sequential scans: none. */
    private static final List<String> GROWN = List.of("message", "conversation_group", "conversation_endpoint");
    private static final int MAX_SCANNED_ROWS_PER_CALL = 2;
    /** The statements the calls run once the declared objects' checks are remembered, by what they do. */
    private static final Map<String, String> STATEMENTS = Map.of("beginDialogAndSend", SQL.beginDialogAndSendKnown(),
            "the SEND's lock of its conversation", SQL.lockConversation, "the SEND", SQL.sendKnown());

    @Test
    void theSendsStatementsArePlannedOnceNotAtEveryCall() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("send_plan_cache"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            sendEach(broker.session(c), c, EXECUTIONS);
            assertAll(STATEMENTS.entrySet().stream().map(e -> () -> {
                long[] one = plans(c, e.getValue(), EXECUTIONS);
                assertTrue(one[1] <= 5, e.getKey() + ": custom plans (one planning each) of " + EXECUTIONS
                        + " executions: " + one[1] + "; generic: " + one[0]);
                assertTrue(one[0] >= EXECUTIONS - 10, e.getKey() + ": generic plans: " + one[0]);
            }));
        }
    }

    @Test
    void theSettledPlansStayCheapWhenTheTablesGrowUnderThem() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("send_plan_growth"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open(); Connection other = source.open()) {
            GrowingTablesDialogTest.declaredAndAnalysedEmpty(broker, c);
            BrokerSession s = broker.session(c);
            sendEach(s, c, EXECUTIONS);
            Map<String, Long> settled = new java.util.HashMap<>();
            STATEMENTS.forEach((what, text) -> {
                long generic = plans(c, text, EXECUTIONS)[0];
                assertTrue(generic > 0, what + ": the plan settled before the growth");
                settled.put(what, generic);
            });

            IdleGroupsReceiveTest.send(broker, other, GROWTH, 1);
            Map<String, Long> before = GrowingTablesDialogTest.scannedRows(c, other);
            sendEach(s, c, CALLS);
            Map<String, Long> scanned = GrowingTablesDialogTest.scannedRows(c, other);
            scanned.replaceAll((table, rows) -> rows - before.getOrDefault(table, 0L));
            scanned.values().removeIf(rows -> rows == 0);
            STATEMENTS.forEach((what, text) -> {
                long ran = plans(c, text, CALLS)[0] - settled.get(what);
                assertTrue(ran >= CALLS, what + " ran the plan settled before the growth " + ran + " times");
            });
            long grown = GROWN.stream().mapToLong(table -> scanned.getOrDefault(table, 0L)).sum();
            assertTrue(grown <= (long) MAX_SCANNED_ROWS_PER_CALL * CALLS, String.format("%d rows of the grown"
                    + " tables read by sequential scans for %d beginDialogAndSend and %d SENDs, by table: %s", grown,
                    CALLS, CALLS, scanned));
        }
    }

    /**
     * The planner's setting the statements are planned under lasts only for them: the application's statements after
     * them, in the same transaction, run under the session's own, whatever that is.
     */
    @Test
    void theApplicationsStatementsAfterTheSendKeepTheSessionsSetting() throws Exception {
        ConnectionSource source = new ConnectionSource(PostgresServer.get().newDatabase("send_plan_setting"));
        try (PortableBroker broker = new PortableBroker(source, BackgroundRunner.daemonThreads(),
                PortableOptions.defaults()); Connection c = source.open()) {
            IdleGroupsReceiveTest.declare(broker, c);
            BrokerSession s = broker.session(c);
            for (String session : List.of("on", "off", "on")) {
                ReceivePlanCacheTest.execute(c, "SET enable_seqscan = " + session);
                c.commit();
                Conversation d = s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
                assertEquals(session, ReceivePlanCacheTest.show(c), "in beginDialogAndSend's transaction, after it");
                s.send(d.handle(), "M", BODY);
                assertEquals(session, ReceivePlanCacheTest.show(c), "in the SEND's transaction, after it");
                c.commit();
                s.afterCompletion(true);
                assertEquals(session, ReceivePlanCacheTest.show(c), "after the commit");
                c.commit();
            }
        }
    }

    /**
     * Calls {@code beginDialogAndSend} {@code n} times, then SEND {@code n} times on one open dialog, each call in a
     * transaction of its own, on one session as a sender's connection keeps one.
     */
    private static void sendEach(BrokerSession s, Connection c, int n) throws Exception {
        Conversation open = null;
        for (int i = 0; i < n; i++) {
            open = s.beginDialogAndSend("I", "T", "C", DialogOptions.defaults(), "M", BODY);
            commit(c, s);
        }
        for (int i = 0; i < n; i++) {
            s.send(open.handle(), "M", BODY);
            commit(c, s);
        }
    }

    private static void commit(Connection c, BrokerSession s) throws Exception {
        c.commit();
        s.afterCompletion(true);
    }

    /**
     * The generic and custom plans so far of the statements kept prepared on this connection whose text holds
     * {@code sql}, summed; a statement not kept prepared is planned at each of its executions: {@code executions}
     * custom plans.
     */
    private static long[] plans(Connection c, String sql, int executions) {
        try {
            return preparedPlans(c, sql, executions);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static long[] preparedPlans(Connection c, String sql, int executions) throws java.sql.SQLException {
        long[] plans = null;
        try (PreparedStatement ps = c.prepareStatement("SELECT generic_plans, custom_plans"
                + " FROM pg_prepared_statements WHERE strpos(statement, ?) > 0")) {
            ps.setString(1, numbered(sql));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) { // one per session that ran it on this connection
                    plans = plans == null ? new long[2] : plans;
                    plans[0] += rs.getLong(1);
                    plans[1] += rs.getLong(2);
                }
            }
        }
        c.commit();
        return plans == null ? new long[] {0, executions} : plans;
    }

    /** The text as the driver sends it to the server: its parameters numbered ({@code $1}, ...) in their order. */
    private static String numbered(String sql) {
        StringBuilder out = new StringBuilder();
        int n = 0;
        for (char ch : sql.toCharArray()) {
            if (ch == '?') {
                out.append('$').append(++n);
            } else {
                out.append(ch);
            }
        }
        return out.toString();
    }
}
