package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.NotFoundException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.List;
import java.util.TreeSet;
import javax.management.Attribute;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.RuntimeMBeanException;
import javax.management.openmbean.CompositeData;

/**
 * The adapter's MXBeans on the server's MBean server, read and called by name with open types only: the console
 * shares no class with the adapter, and shows exactly what JMX shows.
 */
final class AdapterBeans {

    /** The attributes of an activation the console shows, in this order. */
    static final String[] ACTIVATION_ATTRIBUTES = {"Name", "Queue", "Backend", "MaxReaders", "ActiveReaders",
        "ParkedReaders", "WaitingReaders", "Paused", "BreakerState", "ReceiveBatchSize", "WaitTimeout", "QueueDepth",
        "Received", "Delivered",
        "Committed", "RolledBack", "Redelivered", "DeadLettered", "ErrorsReceived", "PriorityRequestsRejected",
        "MeanDeliveryMillis", "P99DeliveryMillis", "LastError", "LastErrorTime", "QueueDisabled", "QueueDisabledSince",
        "ReconnectingReaders"};

    /** The attributes of a table activation the console shows, in this order. */
    static final String[] TABLE_ATTRIBUTES = {"Table", "Mode", "ReaderCount", "AvailableRows", "WaitingRows",
        "LeasedRows", "SetAsideRows", "OldestAvailableAgeSeconds", "DeliveredRows", "FailedDeliveries", "LeasesLost",
        "BreakerState", "DeliveriesFailingSince", "FailingSince", "LastError"};

    /** The MBean type of queue activations. */
    static final String ACTIVATION = "Activation";
    /** The MBean type of table activations. */
    static final String TABLE_ACTIVATION = "TableActivation";

    private static final String DOMAIN = "org.ssbjca";

    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    /** @return the activations' names, sorted */
    List<String> activationNames() {
        return names(ACTIVATION);
    }

    /**
     * @param type {@value #ACTIVATION} or {@value #TABLE_ACTIVATION}
     * @return the names of that type's MBeans, sorted
     */
    List<String> names(String type) {
        Collection<ObjectName> names = server.queryNames(pattern(DOMAIN + ":type=" + type + ",*"), null);
        TreeSet<String> sorted = new TreeSet<>();
        for (ObjectName n : names) {
            if (n.getKeyProperty("instance") == null) {
                sorted.add(activationOf(n));
            }
        }
        return new ArrayList<>(sorted);
    }

    /**
     * @param activation an activation's name
     * @return its attributes as JSON
     */
    JsonObjectBuilder activation(String activation) {
        return read(ACTIVATION, activation, ACTIVATION_ATTRIBUTES);
    }

    /**
     * @param type the MBean type
     * @param activation the activation's name
     * @param attributes the attributes to read
     * @return its name and those attributes as JSON
     */
    JsonObjectBuilder read(String type, String activation, String[] attributes) {
        JsonObjectBuilder json = Json.createObjectBuilder();
        if (TABLE_ACTIVATION.equals(type)) {
            json.add("name", activation);
        }
        onBean(type, activation, name -> {
            for (Attribute a : server.getAttributes(name, attributes).asList()) {
                json.add(lowerFirst(a.getName()), toJson(a.getValue()));
            }
            return JsonValue.NULL;
        });
        return json;
    }

    /**
     * @param activation an activation's name
     * @param attributes attributes of it
     * @return their values as the MBean gave them, in that order (null for one it did not give)
     */
    Object[] values(String activation, String[] attributes) {
        Object[] out = new Object[attributes.length];
        onBean(ACTIVATION, activation, name -> {
            List<String> wanted = List.of(attributes);
            for (Attribute a : server.getAttributes(name, attributes).asList()) {
                out[wanted.indexOf(a.getName())] = a.getValue();
            }
            return JsonValue.NULL;
        });
        return out;
    }

    /**
     * @param activation an activation's name
     * @param attribute an attribute
     * @return its value as JSON
     */
    JsonValue attribute(String activation, String attribute) {
        return attribute(ACTIVATION, activation, attribute);
    }

    /** Reads an attribute of an MBean of a type, as JSON. */
    JsonValue attribute(String type, String activation, String attribute) {
        return onBean(type, activation, name -> toJson(server.getAttribute(name, attribute)));
    }

    /** Sets a writable attribute. */
    void set(String activation, String attribute, Object value) {
        onBean(ACTIVATION, activation, name -> {
            server.setAttribute(name, new Attribute(attribute, value));
            return JsonValue.NULL;
        });
    }

    /**
     * Calls an operation.
     *
     * @param activation the activation
     * @param operation the operation
     * @param signature the parameter types
     * @param arguments the arguments
     * @return its result as JSON
     */
    JsonValue invoke(String activation, String operation, String[] signature, Object... arguments) {
        return invoke(ACTIVATION, activation, operation, signature, arguments);
    }

    /**
     * Calls an operation of an activation and returns its result as the MBean gave it (a body's bytes).
     *
     * @param activation the activation
     * @param operation the operation
     * @param signature the parameter types
     * @param arguments the arguments
     * @return its result
     */
    Object invokeRaw(String activation, String operation, String[] signature, Object... arguments) {
        Object[] out = new Object[1];
        onBean(ACTIVATION, activation, name -> {
            out[0] = server.invoke(name, operation, arguments, signature);
            return JsonValue.NULL;
        });
        return out[0];
    }

    /** Calls an operation of an MBean of a type. */
    JsonValue invoke(String type, String activation, String operation, String[] signature, Object... arguments) {
        return onBean(type, activation, name -> toJson(server.invoke(name, operation, arguments, signature)));
    }

    /** One call on an activation's MBean. */
    @FunctionalInterface
    private interface BeanCall {
        JsonValue on(ObjectName name) throws JMException;
    }

    /**
     * Runs a call on an activation's MBean: an unknown activation is 404, a value the MBean refused 400 with its
     * message.
     */
    private JsonValue onBean(String type, String activation, BeanCall call) {
        try {
            return call.on(beanName(type, activation));
        } catch (InstanceNotFoundException e) {
            throw new NotFoundException("no activation " + activation);
        } catch (RuntimeMBeanException e) {
            throw new BadRequestException(e.getTargetException().getMessage(), e);
        } catch (JMException e) {
            throw new IllegalStateException(e);
        }
    }

    private ObjectName beanName(String type, String activation) {
        ObjectName name = pattern(DOMAIN + ":type=" + type + ",name=" + ObjectName.quote(activation));
        if (server.isRegistered(name)) {
            return name;
        }
        ObjectName plain;
        try {
            plain = new ObjectName(DOMAIN + ":type=" + type + ",name=" + activation);
        } catch (MalformedObjectNameException e) {
            throw new NotFoundException("no activation " + activation);
        }
        if (!server.isRegistered(plain)) {
            throw new NotFoundException("no activation " + activation);
        }
        return plain;
    }

    /**
     * @param name an activation MBean's name
     * @return the activation's name, unquoted, or empty when it has none
     */
    static String activationOf(ObjectName name) {
        String value = name.getKeyProperty("name");
        return value == null ? "" : value.startsWith("\"") ? ObjectName.unquote(value) : value;
    }

    /** @return the ObjectName for a name or pattern this class writes */
    static ObjectName pattern(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static String lowerFirst(String s) {
        return Character.toLowerCase(s.charAt(0)) + s.substring(1);
    }

    /**
     * @param value an open-type value
     * @return it as JSON: composite data as objects (keys in their type's order), arrays and lists as arrays,
     *         dates as ISO-8601 text
     */
    static JsonValue toJson(Object value) {
        if (value == null) {
            return JsonValue.NULL;
        }
        if (value instanceof Boolean b) {
            return b ? JsonValue.TRUE : JsonValue.FALSE;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return Json.createValue(((Number) value).longValue());
        }
        if (value instanceof Number n) {
            double d = n.doubleValue();
            return Double.isFinite(d) ? Json.createValue(d) : JsonValue.NULL;
        }
        if (value instanceof Date d) {
            return Json.createValue(d.toInstant().toString());
        }
        if (value instanceof CompositeData c) {
            JsonObjectBuilder o = Json.createObjectBuilder();
            for (String key : c.getCompositeType().keySet()) {
                o.add(key, toJson(c.get(key)));
            }
            return o.build();
        }
        if (value instanceof Object[] array) {
            return toJson(List.of(array));
        }
        if (value instanceof Collection<?> list) {
            JsonArrayBuilder a = Json.createArrayBuilder();
            for (Object o : list) {
                a.add(toJson(o));
            }
            return a.build();
        }
        return Json.createValue(value.toString());
    }
}
