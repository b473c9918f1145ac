package org.ssbjca.management;

import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** The JMX names of the adapter's MBeans, all in the {@value #DOMAIN} domain. */
public final class ObjectNames {

    /** The domain of every MBean of the adapter. */
    public static final String DOMAIN = "org.ssbjca";

    /** A value that can stand in an object name without quotes. */
    private static final Pattern PLAIN = Pattern.compile("[^,=:\"*?\\\\\\s]+");

    private ObjectNames() {
    }

    /** Returns {@code org.ssbjca:type=ResourceAdapter}. */
    public static ObjectName resourceAdapter() {
        return of(DOMAIN + ":type=ResourceAdapter");
    }

    /**
     * Returns {@code org.ssbjca:type=Activation,name=<name>}, the name quoted when it holds characters an object name
     * does not allow bare.
     *
     * @param activationName the activation's name ({@code Bean@queue})
     */
    public static ObjectName activation(String activationName) {
        return of(DOMAIN + ":type=Activation,name=" + value(activationName));
    }

    /**
     * Returns {@code org.ssbjca:type=TableActivation,name=<name>}.
     *
     * @param activationName the table activation's name ({@code Bean@table})
     */
    public static ObjectName tableActivation(String activationName) {
        return of(DOMAIN + ":type=TableActivation,name=" + value(activationName));
    }

    /**
     * The name used when another MBean already has {@code base} (two activations of beans with the same simple name
     * on the same queue, or two adapters in one JVM).
     *
     * @param base the preferred name
     * @param instance 2, 3, ...
     * @return {@code base} with {@code ,instance=n}
     */
    static ObjectName withInstance(ObjectName base, int instance) {
        return of(base.getCanonicalName() + ",instance=" + instance);
    }

    /**
     * Returns the value, quoted with {@link ObjectName#quote(String)} when it is empty or holds a character that a bare
     * value may not.
     *
     * @param value a key property value
     */
    static String value(String value) {
        return PLAIN.matcher(value).matches() ? value : ObjectName.quote(value);
    }

    private static ObjectName of(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("not a valid JMX name: " + name, e);
        }
    }
}
