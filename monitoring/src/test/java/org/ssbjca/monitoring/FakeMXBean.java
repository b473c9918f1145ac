package org.ssbjca.monitoring;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * One of the adapter's MXBean interfaces answered from attribute values the test sets, registered as an MXBean (so a
 * reader sees open types, as the WAR does in WildFly). Only attributes the interface has can be set, with values of
 * their type: a name the WAR reads that the adapter's interface lacks fails here, not in WildFly. An attribute never
 * set reads as null, or 0 and false for a primitive; operations are not supported.
 *
 * @param <T> the MXBean interface
 */
final class FakeMXBean<T> implements InvocationHandler {

    private final Class<T> type;
    private final Map<String, Object> values = new ConcurrentHashMap<>();

    /** The value of an attribute whose reads fail. */
    private static final Object FAILS = new Object();

    private FakeMXBean(Class<T> type) {
        this.type = type;
    }

    /** @return a fake of that interface, every attribute unset */
    static <T> FakeMXBean<T> of(Class<T> type) {
        return new FakeMXBean<>(type);
    }

    /**
     * @param attribute an attribute of the interface, as JMX names it ({@code Delivered} for {@code getDelivered()})
     * @param value its value from now on, of the attribute's type
     * @return this fake
     */
    FakeMXBean<T> set(String attribute, Object value) {
        Class<?> returned = boxed(getter(attribute).getReturnType());
        if (!returned.isInstance(value)) {
            throw new IllegalArgumentException(type.getSimpleName() + "." + attribute + " is a " + returned.getName()
                    + ", not " + value);
        }
        values.put(attribute, value);
        return this;
    }

    /**
     * @param attribute a numeric attribute of the interface
     * @param value its value from now on, converted to the attribute's type ({@code int}, {@code long} or
     *     {@code double})
     * @return this fake
     */
    FakeMXBean<T> setNumber(String attribute, long value) {
        Class<?> returned = getter(attribute).getReturnType();
        return set(attribute, returned == int.class ? Math.toIntExact(value)
                : returned == double.class ? (Object) (double) value : (Object) value);
    }

    /**
     * @param attribute an attribute of the interface
     * @return this fake, whose reads of that attribute fail from now on as the adapter's do when its database cannot
     *     be read
     */
    FakeMXBean<T> fail(String attribute) {
        getter(attribute);
        values.put(attribute, FAILS);
        return this;
    }

    /** Registers the fake under that name. */
    void register(MBeanServer server, ObjectName name) throws JMException {
        T proxy = type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, this));
        server.registerMBean(new StandardMBean(proxy, type, true), name);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        if (method.getDeclaringClass() == Object.class) {
            return switch (method.getName()) {
                case "equals" -> proxy == args[0];
                case "hashCode" -> System.identityHashCode(proxy);
                default -> "FakeMXBean(" + type.getSimpleName() + ")" + values;
            };
        }
        String attribute = attribute(method);
        if (attribute == null || args != null) {
            throw new UnsupportedOperationException(method.getName());
        }
        Object value = values.get(attribute);
        if (value == FAILS) {
            throw new IllegalStateException(attribute + " cannot be read: the database is unreachable");
        }
        return value != null ? value : zero(method.getReturnType());
    }

    private Method getter(String attribute) {
        for (Method m : type.getMethods()) {
            if (attribute.equals(attribute(m)) && m.getParameterCount() == 0) {
                return m;
            }
        }
        throw new IllegalArgumentException(type.getSimpleName() + " has no attribute " + attribute);
    }

    private static String attribute(Method getter) {
        String name = getter.getName();
        if (name.startsWith("get") && name.length() > 3) {
            return name.substring(3);
        }
        if (name.startsWith("is") && name.length() > 2 && boxed(getter.getReturnType()) == Boolean.class) {
            return name.substring(2);
        }
        return null;
    }

    private static Class<?> boxed(Class<?> type) {
        return type.isPrimitive() ? zero(type).getClass() : type;
    }

    private static Object zero(Class<?> type) {
        if (type == boolean.class) {
            return false;
        }
        if (type == int.class) {
            return 0;
        }
        if (type == long.class) {
            return 0L;
        }
        if (type == double.class) {
            return 0.0;
        }
        if (type.isPrimitive()) {
            throw new IllegalArgumentException("no zero for " + type);
        }
        return null;
    }
}
