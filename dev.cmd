@echo off
rem Windows twin of ./dev: runs a deno task with the pinned Deno, installing that version into a
rem project-local cache first when it is not on PATH. Usage: dev demo, dev test, dev check;
rem dev deno <args...> runs that Deno itself in the current folder.
setlocal EnableExtensions
set "DENO_VERSION=2.9.6"
set "ROOT=%~dp0"
if defined REPO_APY_DEV_CACHE (set "CACHE=%REPO_APY_DEV_CACHE%") else (set "CACHE=%ROOT%.cache\deno-%DENO_VERSION%")

if "%~1"=="" (
  echo usage: dev ^<task^> [args...]   e.g. dev demo, dev test, dev check 1>&2
  exit /b 2
)

set "DENO_BIN="
for /f "tokens=2" %%v in ('deno --version 2^>nul ^| findstr /b "deno "') do (
  if "%%v"=="%DENO_VERSION%" set "DENO_BIN=deno"
)
if not defined DENO_BIN if exist "%CACHE%\node_modules\.bin\deno.cmd" set "DENO_BIN=%CACHE%\node_modules\.bin\deno.cmd"
if not defined DENO_BIN if exist "%CACHE%\bin\deno.exe" set "DENO_BIN=%CACHE%\bin\deno.exe"

if not defined DENO_BIN (
  if not exist "%CACHE%" mkdir "%CACHE%"
  where npm >nul 2>nul
  if not errorlevel 1 (
    echo Installing Deno %DENO_VERSION% into %CACHE% from the npm registry 1>&2
    call npm install --prefix "%CACHE%" --no-save --no-audit --no-fund deno@%DENO_VERSION% 1>&2
    if exist "%CACHE%\node_modules\.bin\deno.cmd" set "DENO_BIN=%CACHE%\node_modules\.bin\deno.cmd"
  )
)
if not defined DENO_BIN (
  echo Installing Deno %DENO_VERSION% into %CACHE% with Deno's official installer 1>&2
  powershell -NoProfile -ExecutionPolicy Bypass -Command "$env:DENO_INSTALL='%CACHE%'; $v='v%DENO_VERSION%'; iex \"& { $(irm https://deno.land/install.ps1) } $v\""
  if exist "%CACHE%\bin\deno.exe" set "DENO_BIN=%CACHE%\bin\deno.exe"
)
if not defined DENO_BIN (
  echo Could not install Deno %DENO_VERSION%: install npm or Deno itself, then run this again 1>&2
  exit /b 1
)

if /i "%~1"=="deno" (
  rem Everything after the first word "deno", passed on as typed.
  set "ARGS=%*"
  call set "ARGS=%%ARGS:*deno=%%"
  call "%DENO_BIN%" %%ARGS%%
  exit /b %ERRORLEVEL%
)

cd /d "%ROOT%"
call "%DENO_BIN%" task %*
exit /b %ERRORLEVEL%
