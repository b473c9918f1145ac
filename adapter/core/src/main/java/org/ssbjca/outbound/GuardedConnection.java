package org.ssbjca.outbound;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Set;

/**
 * The JDBC connection an application gets from {@code ServiceBrokerConnection.jdbcConnection()}: every call goes to
 * the connection the broker verbs use at that moment; calls that would end or change the transaction are refused.
 */
final class GuardedConnection implements InvocationHandler {

    private static final Set<String> REFUSED = Set.of("close", "commit", "rollback", "setAutoCommit", "setSavepoint",
            "releaseSavepoint", "abort", "setTransactionIsolation");

    /** Where a call goes: the connection the broker verbs use now, or an {@link SQLException} saying why none. */
    @FunctionalInterface
    interface Target {
        Connection get() throws SQLException;
    }

    private final Target target;

    private GuardedConnection(Target target) {
        this.target = target;
    }

    static Connection of(Target target) {
        return (Connection) Proxy.newProxyInstance(GuardedConnection.class.getClassLoader(),
                new Class<?>[] {Connection.class}, new GuardedConnection(target));
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        String name = method.getName();
        if (REFUSED.contains(name)) {
            throw new SQLException(name + "() is not allowed on the JDBC connection of a broker connection: the "
                    + "transaction belongs to the container or to the broker connection");
        }
        if (name.equals("isClosed") && (args == null || args.length == 0)) {
            return false;
        }
        try {
            return method.invoke(target.get(), args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
