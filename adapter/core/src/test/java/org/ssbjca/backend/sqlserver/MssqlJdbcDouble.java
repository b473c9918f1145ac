package org.ssbjca.backend.sqlserver;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JDBC connection that answers T-SQL batches the way mssql-jdbc reports SQL Server's answers, over an H2 database
 * that holds the rows. A prepared statement runs as one RPC (sp_prepexec), so its statements' row counts come in
 * DONEINPROC tokens: under {@code SET NOCOUNT ON} they carry no count, and {@code SQLServerStatement.getNextResult}
 * skips them, so {@code executeUpdate} returns -1; without it, {@code executeUpdate} returns the last count
 * (lastUpdateCount=true, the default); a batch that returns a result set fails {@code executeUpdate} ("A result set
 * was generated for update.") and one that returns none fails {@code executeQuery} ("The statement did not return a
 * result set.").
 * <p>
 * The T-SQL it understands is what the statements it stands in for use: {@code SET NOCOUNT ON|OFF}, {@code DECLARE
 * @v TABLE (...)}, {@code UPDATE}/{@code DELETE} with {@code OUTPUT <expr> INTO @v (col)} (rows counted into the
 * variable), {@code SELECT COUNT(*) FROM @v}, and plain SELECTs; names in brackets, {@code SYSDATETIME()},
 * {@code WITH (NOLOCK)}, {@code COUNT_BIG}, {@code DATETIMEOFFSET(7)}. {@code execute()} hands its result sets to
 * {@code getResultSet}/{@code getMoreResults} in turn ({@code getUpdateCount} -1 after them).
 * <p>
 * Times: {@code CAST(? AS DATETIME)} keeps milliseconds (a token read back from a datetime column already falls on
 * its ticks). A {@code datetime} column (declared in H2 as {@code TIMESTAMP(3)}, holding .xx0, .xx3 or .xx7 as
 * mssql-jdbc reads a datetime, and typed {@code datetime} in {@link #columnTypes}) compares with a bound parameter
 * (sent as datetime2) as SQL Server 2016 and later do at compatibility level 130 and above: the column converts to
 * datetime2 exactly, .003 being .0033333, so only a value ending in .xx0 ever equals the parameter.
 */
final class MssqlJdbcDouble {

    private static final Pattern OUTPUT_INTO = Pattern.compile(" OUTPUT [^;]*? INTO @(\\w+) \\(\\w+\\)");
    private static final Pattern DECLARE_TABLE = Pattern.compile("DECLARE @(\\w+) TABLE \\(.*\\)");
    private static final Pattern COUNT_VARIABLE = Pattern.compile("SELECT COUNT\\(\\*\\) FROM @(\\w+)");

    private final Connection h2;
    /**
     * The SQL Server types of columns, by name, as mssql-jdbc's getColumns gives them in TYPE_NAME (sp_columns);
     * other columns keep H2's.
     */
    final Map<String, String> columnTypes = new HashMap<>();
    /**
     * Whether every session starts with NOCOUNT ON, as on a server whose 'user options' have bit 512 set: a batch
     * without SET NOCOUNT then has no update counts either.
     */
    boolean sessionNocount;
    /** Every batch run, as sent. */
    final List<String> batches = new ArrayList<>();

    MssqlJdbcDouble(Connection h2) {
        this.h2 = h2;
    }

    Connection connection() {
        return proxy(Connection.class, (p, m, a) -> {
            if ("prepareStatement".equals(m.getName()) && a.length == 1) {
                return statement((String) a[0]);
            }
            if ("getMetaData".equals(m.getName())) {
                return metaData(h2.getMetaData());
            }
            return invoke(h2, m, a);
        });
    }

    private DatabaseMetaData metaData(DatabaseMetaData meta) {
        return proxy(DatabaseMetaData.class, (p, m, a) -> {
            Object result = invoke(meta, m, a);
            return "getColumns".equals(m.getName()) ? columns((ResultSet) result) : result;
        });
    }

    private ResultSet columns(ResultSet rs) {
        return proxy(ResultSet.class, (p, m, a) -> {
            if ("getString".equals(m.getName()) && "TYPE_NAME".equals(a[0])) {
                String type = columnTypes.get(rs.getString("COLUMN_NAME"));
                if (type != null) {
                    return type;
                }
            }
            return invoke(rs, m, a);
        });
    }

    private PreparedStatement statement(String sql) {
        Map<Integer, Object> params = new TreeMap<>();
        Outcome[] executed = new Outcome[1];
        return proxy(PreparedStatement.class, (p, m, a) -> {
            String name = m.getName();
            if (name.startsWith("set") && a.length == 2 && a[0] instanceof Integer && !"setQueryTimeout".equals(name)) {
                params.put((Integer) a[0], a[1]);
                return null;
            }
            switch (name) {
                case "executeUpdate": {
                    Outcome o = run(sql, params);
                    if (!o.results.isEmpty()) {
                        throw new SQLException("A result set was generated for update.");
                    }
                    return o.lastCount;
                }
                case "executeQuery": {
                    Outcome o = run(sql, params);
                    if (o.results.isEmpty()) {
                        throw new SQLException("The statement did not return a result set.");
                    }
                    return o.results.get(0);
                }
                case "execute":
                    executed[0] = run(sql, params);
                    return !executed[0].results.isEmpty();
                case "getResultSet":
                    return executed[0].results.isEmpty() ? null : executed[0].results.get(0);
                case "getMoreResults":
                    if (!executed[0].results.isEmpty()) {
                        executed[0].results.remove(0);
                    }
                    return !executed[0].results.isEmpty();
                case "getUpdateCount":
                    return -1; // no more results: the counts between result sets are not kept
                case "close":
                case "setQueryTimeout":
                    return null;
                case "isWrapperFor": // as mssql-jdbc's statement: it wraps no other driver's interface
                    return ((Class<?>) a[0]).isInstance(p);
                default:
                    throw new UnsupportedOperationException("PreparedStatement." + name);
            }
        });
    }

    /** What a batch returned: its result sets and the count executeUpdate reports. */
    private static final class Outcome {
        final List<ResultSet> results = new ArrayList<>();
        int lastCount = -1;
    }

    private Outcome run(String batch, Map<Integer, Object> params) throws SQLException {
        batches.add(batch);
        Outcome out = new Outcome();
        boolean nocount = sessionNocount;
        Map<String, Integer> variables = new HashMap<>();
        int next = 1;
        for (String statement : batch.split(";\\s*(\\n|$)")) {
            String s = statement.trim();
            if (s.isEmpty()) {
                continue;
            }
            int marks = (int) s.chars().filter(ch -> ch == '?').count();
            List<Object> mine = new ArrayList<>();
            for (int i = 0; i < marks; i++) {
                mine.add(params.get(next++));
            }
            Matcher declare = DECLARE_TABLE.matcher(s);
            Matcher countVariable = COUNT_VARIABLE.matcher(s);
            if (s.equals("SET NOCOUNT ON")) {
                nocount = true;
            } else if (s.equals("SET NOCOUNT OFF")) {
                nocount = false;
            } else if (declare.matches()) {
                variables.put(declare.group(1), 0);
            } else if (countVariable.matches()) {
                out.results.add(h2.createStatement().executeQuery("SELECT " + variables.get(countVariable.group(1))));
            } else if (s.startsWith("SELECT")) {
                out.results.add(prepare(s, mine).executeQuery());
            } else {
                Matcher into = OUTPUT_INTO.matcher(s);
                String variable = into.find() ? into.group(1) : null;
                int n = prepare(variable == null ? s : into.replaceFirst(""), mine).executeUpdate();
                if (variable != null) {
                    variables.merge(variable, n, Integer::sum);
                }
                if (!nocount) {
                    out.lastCount = n;
                }
            }
        }
        return out;
    }

    private PreparedStatement prepare(String tsql, List<Object> params) throws SQLException {
        String sql = tsql.replaceAll("\\[([^\\]]*)\\]", "\"$1\"").replace("SYSDATETIME()", "LOCALTIMESTAMP")
                .replace(" WITH (NOLOCK)", "").replace("COUNT_BIG(", "COUNT(")
                .replace("DATETIMEOFFSET(7)", "TIMESTAMP(7) WITH TIME ZONE")
                .replace("CAST(? AS DATETIME)", "CAST(? AS TIMESTAMP(3))");
        for (String column : columnTypes.keySet()) {
            if (!"datetime".equals(columnTypes.get(column))) {
                continue;
            }
            // datetime keeps 1/300 s: only a value ending in .xx0 converts to a datetime2 that ends in zeros
            sql = sql.replace("\"" + column + "\" = ?", "(\"" + column + "\" = ? AND MOD(EXTRACT(MILLISECOND FROM \""
                    + column + "\"), 10) = 0)");
        }
        PreparedStatement ps = h2.prepareStatement(sql);
        for (int i = 0; i < params.size(); i++) {
            ps.setObject(i + 1, params.get(i));
        }
        return ps;
    }

    private static Object invoke(Object target, java.lang.reflect.Method m, Object[] a) throws Throwable {
        try {
            return m.invoke(target, a);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, InvocationHandler handler) {
        return (T) Proxy.newProxyInstance(MssqlJdbcDouble.class.getClassLoader(), new Class<?>[] {type}, handler);
    }
}
