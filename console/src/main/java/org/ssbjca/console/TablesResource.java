package org.ssbjca.console;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The table activations (message-driven beans fed from an application's table) and what an operator does with their
 * set-aside rows; every call goes to the activation's MXBean ({@code org.ssbjca:type=TableActivation,name=...}).
 * Reading needs {@code ssb-viewer} or {@code ssb-operator}, acting {@code ssb-operator} and the header
 * {@value CsrfFilter#HEADER}, as for the queue activations.
 */
@Path("tables")
@Produces(MediaType.APPLICATION_JSON)
public class TablesResource {

    private final AdapterBeans beans = new AdapterBeans();

    /** @return every table activation with its row counts (read from the table now) and counters */
    @GET
    public JsonArray list() {
        JsonArrayBuilder all = Json.createArrayBuilder();
        for (String name : beans.names(AdapterBeans.TABLE_ACTIVATION)) {
            all.add(beans.read(AdapterBeans.TABLE_ACTIVATION, name, AdapterBeans.TABLE_ATTRIBUTES));
        }
        return all.build();
    }

    /** @return {@code {"redelivered": n}}: the set-aside rows given another round of attempts */
    @POST
    @Path("{name}/set-aside/redeliver")
    public JsonObject redeliver(@PathParam("name") String name) {
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "redeliverSetAside", new String[0]);
        return Json.createObjectBuilder().add("redelivered", n).build();
    }

    /** @return {@code {"purged": n}}: the set-aside rows deleted */
    @DELETE
    @Path("{name}/set-aside")
    public JsonObject purge(@PathParam("name") String name) {
        JsonValue n = beans.invoke(AdapterBeans.TABLE_ACTIVATION, name, "purgeSetAside", new String[0]);
        return Json.createObjectBuilder().add("purged", n).build();
    }
}
