#!/bin/sh
# Runs once, as the bootstrap superuser, when the postgres container initialises an empty data volume
# (docker-entrypoint-initdb.d). It creates the two roles that are not the application's (design.md §12):
# - the owner of the ba_portal database: runs the DDL and creates the application role (`npm run db:migrate`,
#   the compose `migrate` service). CREATEROLE, not superuser: it administers only the roles it creates.
# - temporal: owns Temporal's databases (`temporal` here; auto-setup creates `temporal_visibility`, hence
#   CREATEDB); no right on ba_portal.
# The application role itself (DATABASE_APP_ROLE) is created and granted by db:migrate, as the owner.
# The superuser's password is used for nothing else afterwards.
set -eu

: "${DATABASE_OWNER_PASSWORD:?set DATABASE_OWNER_PASSWORD}"
: "${TEMPORAL_DB_PASSWORD:?set TEMPORAL_DB_PASSWORD}"

psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
  -v owner_password="$DATABASE_OWNER_PASSWORD" \
  -v temporal_password="$TEMPORAL_DB_PASSWORD" <<'SQL'
create role ba_portal_owner login createrole nocreatedb nosuperuser password :'owner_password';
create database ba_portal owner ba_portal_owner;
-- Only roles granted CONNECT (the owner, and the application role db:migrate grants) may connect.
revoke connect, temporary on database ba_portal from public;
create role temporal login createdb nocreaterole nosuperuser password :'temporal_password';
-- auto-setup skips creating the database named like its user: it must exist already.
create database temporal owner temporal;
SQL
