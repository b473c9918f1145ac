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

    /** Counted down when a statement scripted with {@link #waitsUntilCancelled()} starts waiting. */
    final CountDownLatch waiting = new CountDownLatch(1);

    final List<Call> calls = new ArrayList<>();
    private final Deque<Object> responses = new ArrayDeque<>();
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
                    return resultSet(current);
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
                    return resultSet(current);
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
        Object response = responses.isEmpty() ? NOTHING : responses.poll();
        if (response == UNTIL_CANCELLED) {
            waiting.countDown();
            try {
                if (!cancelled.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the waiting statement was never cancelled");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new SQLException("The query was canceled.", "HY008", 0);
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

    @SuppressWarnings("unchecked")
    private static ResultSet resultSet(Object[] current) {
        Iterator<Map<String, Object>> it = ((List<Map<String, Object>>) current[0]).iterator();
        Object[] row = new Object[1];
        return proxy(ResultSet.class, (p, m, a) -> {
            switch (m.getName()) {
                case "next":
                    row[0] = it.hasNext() ? it.next() : null;
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
