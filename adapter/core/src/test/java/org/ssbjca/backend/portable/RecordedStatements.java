package org.ssbjca.backend.portable;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A connection that notes each prepared statement it executes with the parameters it was given, so that a test can
 * run the same statements again under {@code EXPLAIN} ({@link #explainedCosts}).
 */
final class RecordedStatements {

    /** One execution: the text and the parameter setters called, by index, as method name and arguments. */
    record Execution(String sql, Map<Integer, Object[]> setters, Map<Integer, Method> methods) {
    }

    private final List<Execution> executions = new ArrayList<>();
    private final Connection connection;

    /** @param delegate the connection the statements run on */
    RecordedStatements(Connection delegate) {
        this.connection = (Connection) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = invoke(method, delegate, args);
                    if (method.getName().equals("prepareStatement") && args != null && args[0] instanceof String sql) {
                        return recording(sql, (PreparedStatement) result);
                    }
                    return result;
                });
    }

    /** @return the recording connection */
    Connection connection() {
        return connection;
    }

    /** @return the executions so far */
    List<Execution> executions() {
        return List.copyOf(executions);
    }

    /**
     * @param c where to explain them (the caller commits)
     * @return each recorded statement's text with the total cost of its plan, as {@code EXPLAIN} gives it there
     * @throws Exception if one cannot be explained
     */
    Map<String, Double> explainedCosts(Connection c) throws Exception {
        Map<String, Double> costs = new TreeMap<>();
        for (Execution e : executions) {
            try (PreparedStatement ps = c.prepareStatement("EXPLAIN (FORMAT JSON) " + e.sql())) {
                for (Map.Entry<Integer, Object[]> s : e.setters().entrySet()) {
                    e.methods().get(s.getKey()).invoke(ps, s.getValue());
                }
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    costs.merge(e.sql(), totalCost(rs.getString(1)), Math::max);
                }
            }
        }
        return costs;
    }

    /** The top plan node's {@code "Total Cost"} from {@code EXPLAIN (FORMAT JSON)}. */
    static double totalCost(String json) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"Total Cost\": ([0-9.eE+]+)").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no cost in " + json);
        }
        return Double.parseDouble(m.group(1));
    }

    private PreparedStatement recording(String sql, PreparedStatement delegate) {
        Map<Integer, Object[]> setters = new TreeMap<>();
        Map<Integer, Method> methods = new TreeMap<>();
        InvocationHandler handler = (proxy, method, args) -> {
            String name = method.getName();
            if (name.startsWith("set") && args != null && args.length >= 2 && args[0] instanceof Integer index) {
                setters.put(index, args.clone());
                methods.put(index, method);
            } else if (name.equals("clearParameters")) {
                setters.clear();
                methods.clear();
            } else if (name.startsWith("execute") && (args == null || args.length == 0)) {
                executions.add(new Execution(sql, new TreeMap<>(setters), new TreeMap<>(methods)));
            }
            return invoke(method, delegate, args);
        };
        return (PreparedStatement) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {PreparedStatement.class}, handler);
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
