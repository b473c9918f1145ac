package org.ssbjca.backend.sqlserver;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A scripted JDBC connection: records every statement with its bound parameters and query timeout, and answers each
 * execution with the next scripted response (rows, an error, or nothing). Only the calls the backend makes are
 * supported; anything else fails the test loudly.
 */
final class FakeJdbc {

    /** One statement the backend executed. */
    static final class Call {
        final String sql;
        final Map<Integer, Object> params = new TreeMap<>();
        /** The java.sql.Types each NULL parameter was bound with, by position. */
        final Map<Integer, Integer> nullTypes = new TreeMap<>();
        int queryTimeout;

        Call(String sql) {
            this.sql = sql;
        }

        List<Object> params() {
            return new ArrayList<>(params.values());
        }
    }

    private static final Object NOTHING = new Object();
    private static final Object UNTIL_CANCELLED = new Object();

    /**
     * Rows whose statement another thread cancels while it runs: {@code canceller} runs once the statement has
     * started (as a wake or stop would, while the statement is published for cancelling), then the rows are read;
     * if {@code cancelReachesResult}, reading past them fails as the driver's cancelled statement does.
     */
    private record Racing(List<Map<String, Object>> rows, Runnable canceller, boolean cancelReachesResult) {
    }

    /** Counted down when a statement scripted with {@link #waitsUntilCancelled()} starts waiting. */
    final CountDownLatch waiting = new CountDownLatch(1);

    final List<Call> calls = new ArrayList<>();
    private final Deque<Object> responses = new ArrayDeque<>();
    /** Answers a statement once the scripted responses are used up (a double that behaves), or null for none. */
    private java.util.function.Function<Call, List<Map<String, Object>>> responder;
    private boolean autoCommit;

    /** @param rows the rows the next statement returns, each a column-to-value map */
    @SafeVarargs
    final FakeJdbc rows(Map<String, Object>... rows) {
        responses.add(List.of(rows));
        return this;
    }

    /** The next statement returns no result set. */
    FakeJdbc nothing() {
        responses.add(NOTHING);
        return this;
    }

    /**
     * The next statement runs {@code canceller} once it has started, as another thread's wake or stop would, and
     * answers with these rows; the cancel reaches it while they are read: after the last one the driver reports the
     * cancellation (mssql-jdbc checks for it at the DONE token after a result). The batch's RECEIVE had run.
     */
    @SafeVarargs
    final FakeJdbc rowsThenCancelled(Runnable canceller, Map<String, Object>... rows) {
        responses.add(new Racing(List.of(rows), canceller, true));
        return this;
    }

    /**
     * The next statement runs {@code canceller} once it has started, but it had already finished: its rows are read
     * as usual, the cancel comes too late to matter.
     */
    @SafeVarargs
    final FakeJdbc rowsDespiteCancel(Runnable canceller, Map<String, Object>... rows) {
        responses.add(new Racing(List.of(rows), canceller, false));
        return this;
    }

    /** The next statement runs into its JDBC query timeout, as mssql-jdbc reports it. */
    FakeJdbc timeout() {
        responses.add(new java.sql.SQLTimeoutException("The query has timed out.", "HY008", 0));
        return this;
    }

    /** The next statement fails with this SQL Server error number. */
    FakeJdbc error(int number, String message) {
        responses.add(new SQLException(message, "S0001", number));
        return this;
    }

    /**
     * The next statement blocks, as a WAITFOR does, until another thread cancels it (at most 10 s), then fails as the
     * driver's cancelled statement does.
     */
    FakeJdbc waitsUntilCancelled() {
        responses.add(UNTIL_CANCELLED);
        return this;
    }

    static Map<String, Object> row(Object... columnsAndValues) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < columnsAndValues.length; i += 2) {
            row.put((String) columnsAndValues[i], columnsAndValues[i + 1]);
        }
        return row;
    }

    /**
     * @param responder the rows of each statement executed once the scripted responses are used up, computed from the
     *        statement and its parameters (a double of how the server behaves rather than a script)
     * @return this
     */
    FakeJdbc answering(java.util.function.Function<Call, List<Map<String, Object>>> responder) {
        this.responder = responder;
        return this;
    }

    boolean allResponsesUsed() {
        return responses.isEmpty();
    }

    Connection connection() {
        return proxy(Connection.class, (p, m, a) -> {
            switch (m.getName()) {
                case "prepareStatement":
                    return statement(new Call((String) a[0]));
                case "createStatement":
                    return plainStatement();
                case "getAutoCommit":
                    return autoCommit;
                case "setAutoCommit":
                    autoCommit = (Boolean) a[0];
                    return null;
                case "close":
                    return null;
                default:
                    throw new UnsupportedOperationException("Connection." + m.getName());
            }
        });
    }

    private PreparedStatement statement(Call call) {
        Object[] current = new Object[1];
        CountDownLatch cancelled = new CountDownLatch(1);
        return proxy(PreparedStatement.class, (p, m, a) -> {
            switch (m.getName()) {
                case "setObject":
                case "setString":
                case "setInt":
                case "setBytes":
                    call.params.put((Integer) a[0], a[1]);
                    return null;
                case "setNull":
                    call.params.put((Integer) a[0], null);
                    call.nullTypes.put((Integer) a[0], (Integer) a[1]);
                    return null;
                case "setQueryTimeout":
                    call.queryTimeout = (Integer) a[0];
                    return null;
                case "execute":
                    return execute(call, current, cancelled);
                case "cancel":
                    cancelled.countDown();
                    return null;
                case "getResultSet":
                    return resultSet(current, cancelled);
                case "getMoreResults":
                    current[0] = null;
                    return false;
                case "getUpdateCount":
                    return -1;
                case "close":
                    return null;
                default:
                    throw new UnsupportedOperationException("PreparedStatement." + m.getName());
            }
        });
    }

    private Statement plainStatement() {
        Object[] current = new Object[1];
        return proxy(Statement.class, (p, m, a) -> {
            switch (m.getName()) {
                case "execute":
                    return execute(new Call((String) a[0]), current, null);
                case "getResultSet":
                    return resultSet(current, null);
                case "getMoreResults":
                    current[0] = null;
                    return false;
                case "getUpdateCount":
                    return -1;
                case "close":
                    return null;
                default:
                    throw new UnsupportedOperationException("Statement." + m.getName());
            }
        });
    }

    private boolean execute(Call call, Object[] current, CountDownLatch cancelled) throws SQLException {
        calls.add(call);
        Object response = !responses.isEmpty() ? responses.poll() : responder != null ? responder.apply(call) : NOTHING;
        if (response == UNTIL_CANCELLED) {
            waiting.countDown();
            try {
                if (!cancelled.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the waiting statement was never cancelled");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw cancelledByDriver();
        }
        if (response instanceof Racing racing) {
            racing.canceller().run();
        }
        if (response instanceof SQLException) {
            throw (SQLException) response;
        }
        if (response == NOTHING) {
            return false;
        }
        current[0] = response;
        return true;
    }

    /** How mssql-jdbc reports a statement that Statement.cancel() ended. */
    private static SQLException cancelledByDriver() {
        return new SQLException("The query was canceled.", "HY008", 0);
    }

    @SuppressWarnings("unchecked")
    private static ResultSet resultSet(Object[] current, CountDownLatch cancelled) {
        Racing racing = current[0] instanceof Racing r ? r : null;
        List<Map<String, Object>> rows = racing != null ? racing.rows() : (List<Map<String, Object>>) current[0];
        Iterator<Map<String, Object>> it = rows.iterator();
        Object[] row = new Object[1];
        return proxy(ResultSet.class, (p, m, a) -> {
            switch (m.getName()) {
                case "next":
                    row[0] = it.hasNext() ? it.next() : null;
                    if (row[0] == null && racing != null && racing.cancelReachesResult()) {
                        if (cancelled == null || cancelled.getCount() != 0) {
                            throw new IllegalStateException("the racing statement was never cancelled");
                        }
                        throw cancelledByDriver();
                    }
                    return row[0] != null;
                case "close":
                    return null;
                case "getObject":
                case "getString":
                case "getBytes":
                    return value(row[0], a[0]);
                case "getLong":
                    return ((Number) value(row[0], a[0])).longValue();
                case "getInt":
                    return ((Number) value(row[0], a[0])).intValue();
                case "getBoolean":
                    return (Boolean) value(row[0], a[0]);
                default:
                    throw new UnsupportedOperationException("ResultSet." + m.getName());
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static Object value(Object row, Object column) {
        Map<String, Object> r = (Map<String, Object>) row;
        if (column instanceof Integer) {
            return new ArrayList<>(r.values()).get((Integer) column - 1);
        }
        if (!r.containsKey(column)) {
            throw new IllegalArgumentException("no column " + column + " in " + r.keySet());
        }
        return r.get(column);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(FakeJdbc.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
